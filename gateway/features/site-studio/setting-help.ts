import { readFileSync } from 'node:fs';

/** Setting help by feature, then key; the top-level keys under `(top level)`. */
export type SettingHelp = Record<string, Record<string, string>>;

const ROW = /^\| (`[a-z_]+`|\(top level\)) \| `([^`]+)`([^|]*)\| ([^|]+) \|/;

/**
 * The "what it does" text of every setting, read from the one place it is written: the table "Every setting: what it
 * does and the test that shows it" of docs/decisions/0001-site-fixture-format.md (the site studio shows it as each
 * setting's help, docs/decisions/0027-site-studio.md). A row is `| feature | \`key\` (values) | effect | test |`.
 */
export function settingHelpOf(markdown: string): SettingHelp {
  const start = markdown.indexOf('## Every setting: what it does');
  const section = start < 0 ? '' : markdown.slice(start);
  const help: SettingHelp = {};
  for (const line of section.split('\n')) {
    const [, featureCell, key, values, effect] = ROW.exec(line) ?? [];
    if (featureCell === undefined || key === undefined || effect === undefined) continue;
    const feature = featureCell.replaceAll('`', '');
    (help[feature] ??= {})[key] = `${values?.trim() ?? ''} ${effect.trim()}`.trim();
  }
  return help;
}

export function readSettingHelp(decisionFile: string): SettingHelp {
  return settingHelpOf(readFileSync(decisionFile, 'utf8'));
}
