import { readFileSync } from 'node:fs';

/**
 * What the site studio shows as help (docs/decisions/0027-site-studio.md "One help text"), read from ADR 0001:
 * `settings`, each setting's "what it does" by feature, then key (the top-level keys under `(top level)`); `values`,
 * what each value of a coded setting means, by kind (`level`: the requirement level codes; `privacy_policy_display`).
 */
export interface SettingHelp {
  settings: Record<string, Record<string, string>>;
  values: Record<string, Record<string, string>>;
}

const ROW = /^\| (`[a-z_]+`|\(top level\)) \| `([^`]+)`([^|]*)\| ([^|]+) \|/;
/** The table's opening: "Level" is the SPEC §3/§5 requirement level: at `"0"`/`"5"` …, at `"1"` …; */
const LEVEL_SENTENCE = /"Level" is the SPEC [^:]*: (at `"[^;]+);/;
/** "Privacy-policy display (SPEC §3/§5): A shows …, B shows …, C shows …." */
const PRIVACY_SENTENCE = /Privacy-policy display \([^)]*\): ([^.]+)\./;

/**
 * Every setting's "what it does", from the one place it is written: the table "Every setting: what it does and the
 * test that shows it" of docs/decisions/0001-site-fixture-format.md. A row is `| feature | \`key\` (values) | effect | test |`.
 * The value meanings come from the same record: the table's sentence on levels and the privacy-policy display's.
 */
export function settingHelpOf(markdown: string): SettingHelp {
  const start = markdown.indexOf('## Every setting: what it does');
  const section = start < 0 ? '' : markdown.slice(start);
  const settings: SettingHelp['settings'] = {};
  for (const line of section.split('\n')) {
    const [, featureCell, key, values, effect] = ROW.exec(line) ?? [];
    if (featureCell === undefined || key === undefined || effect === undefined) continue;
    const feature = featureCell.replaceAll('`', '');
    (settings[feature] ??= {})[key] = `${values?.trim() ?? ''} ${effect.trim()}`.trim();
  }
  return { settings, values: { level: levelMeanings(section), privacy_policy_display: privacyMeanings(markdown) } };
}

/** `"0"` -> "the field is on registration and required", … from "at `"0"`/`"5"` the field is on registration and required, at `"1"` …". */
function levelMeanings(section: string): Record<string, string> {
  const sentence = LEVEL_SENTENCE.exec(section.replace(/\s+/g, ' '))?.[1] ?? '';
  const meanings: Record<string, string> = {};
  for (const part of sentence.split(/(?:^|, )at (?=`")/)) {
    const meaning = part
      .replace(/^(?:`"\d"`\/?)+\s*/, '')
      .replace(/^\([A-Za-z]+\)\s*/, '')
      .replaceAll('`', '');
    for (const [, code] of part.matchAll(/`"(\d)"`/g)) if (code !== undefined) meanings[code] = meaning;
  }
  return meanings;
}

/** `A` -> "shows the pp checkbox and requires it", … */
function privacyMeanings(markdown: string): Record<string, string> {
  const sentence = PRIVACY_SENTENCE.exec(markdown.replace(/\s+/g, ' '))?.[1] ?? '';
  const meanings: Record<string, string> = {};
  for (const part of sentence.split(/, (?=[A-Z] )/)) {
    const [, value, meaning] = /^([A-Z]) (.+)$/.exec(part.replaceAll('`', '')) ?? [];
    if (value !== undefined && meaning !== undefined) meanings[value] = meaning;
  }
  return meanings;
}

export function readSettingHelp(decisionFile: string): SettingHelp {
  return settingHelpOf(readFileSync(decisionFile, 'utf8'));
}
