/**
 * The site studio's editor state (docs/decisions/0027-site-studio.md): the JSON view's text is the one truth; the
 * form editor reads the site parsed from it and writes back a whole new text, so the two never disagree. A text
 * that is not JSON keeps the last site that was, for the form, and says where the text broke.
 */
import { LEVEL_BY_CODE, LEVEL_CODES, type LevelCode } from '../../schemas/site-config/types';

/** A site file as the studio edits it: the format's top level, `$schema` kept as it came. */
export interface StudioSite {
  $schema?: string;
  name: string;
  siteId: string;
  theme?: string;
  siteFeatureConfigurations: { name: string; featureConfig?: Record<string, string> }[];
}

/** One message of the check, as `sites:check` prints it (schemas/site-config/fixture-check.ts FixtureMistake). */
export interface CheckMessage {
  path: string;
  expected: string;
  actual?: string;
  /** A warning: the file still passes, so the studio says so rather than show it as a mistake. */
  warning?: true;
}

export type ParsedText = { ok: true; site: StudioSite } | { ok: false; line: number; column: number; message: string };

/** The JSON view's text, parsed; where it broke when it is not JSON, or not a site's shape at all. */
export function parseSiteText(text: string): ParsedText {
  try {
    const value: unknown = JSON.parse(text);
    if (
      typeof value !== 'object' ||
      value === null ||
      Array.isArray(value) ||
      !Array.isArray((value as { siteFeatureConfigurations?: unknown }).siteFeatureConfigurations)
    ) {
      return { ok: false, line: 1, column: 1, message: 'a site file is an object with "name", "siteId", "theme" and a "siteFeatureConfigurations" list' };
    }
    const unshaped =
      unshapedTop(value as Record<string, unknown>) ?? unshapedFeature((value as { siteFeatureConfigurations: unknown[] }).siteFeatureConfigurations);
    if (unshaped !== null) {
      const before = text.slice(0, Math.max(0, text.indexOf('"siteFeatureConfigurations"'))).split('\n');
      return { ok: false, line: before.length, column: (before.at(-1)?.length ?? 0) + 1, message: unshaped };
    }
    return { ok: true, site: value as StudioSite };
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const offset = position?.[1] === undefined ? text.length : Number(position[1]);
    const before = text.slice(0, offset).split('\n');
    return { ok: false, line: before.length, column: (before.at(-1)?.length ?? 0) + 1, message: message.replace(/, ".*" is not valid JSON$/s, '') };
  }
}

/**
 * What keeps the form from drawing a feature, or null: each feature an object with a "name" text and, if any, a
 * "featureConfig" object of plain values. A value of the wrong kind (a number for a level) is the check's to name.
 */
function unshapedTop(site: Readonly<Record<string, unknown>>): string | null {
  const key = ['name', 'siteId', 'theme'].find((name) => typeof site[name] === 'object' && site[name] !== null);
  return key === undefined ? null : `${JSON.stringify(key)} is not a plain value: it is a string`;
}

function unshapedFeature(features: readonly unknown[]): string | null {
  const isObject = (node: unknown): node is Record<string, unknown> => typeof node === 'object' && node !== null && !Array.isArray(node);
  for (const [index, feature] of features.entries()) {
    const at = `siteFeatureConfigurations[${index}]`;
    if (!isObject(feature) || typeof feature.name !== 'string') return `${at} is not a feature { "name": "…", "featureConfig": { … } }`;
    if (feature.featureConfig === undefined) continue;
    if (!isObject(feature.featureConfig)) return `${at}.featureConfig is not an object of settings { "key": "value" }`;
    for (const [key, setting] of Object.entries(feature.featureConfig)) {
      if (typeof setting === 'object' && setting !== null) return `${at}.featureConfig ${JSON.stringify(key)} is not a plain value: every setting is a string`;
    }
  }
  return null;
}

/** The text the studio writes for a site: two-space JSON, as the bundled files are (the save formats it again). */
export function siteText(site: StudioSite): string {
  return `${JSON.stringify(site, null, 2)}\n`;
}

/** The site with one setting of the feature at `index` set, or removed when `value` is undefined or empty. */
export function withSetting(site: StudioSite, index: number, key: string, value: string | undefined): StudioSite {
  return {
    ...site,
    siteFeatureConfigurations: site.siteFeatureConfigurations.map((feature, at) => {
      if (at !== index) return feature;
      const { [key]: _left, ...rest } = feature.featureConfig ?? {};
      return { ...feature, featureConfig: value === undefined || value === '' ? rest : { ...rest, [key]: value } };
    }),
  };
}

/** Where a check message belongs in the studio, read from its JSON path. */
export type VerdictPlace =
  | { kind: 'setting'; feature: number; key: string }
  | { kind: 'feature'; feature: number }
  | { kind: 'top'; key: string }
  | { kind: 'json'; line: number; column: number }
  | { kind: 'site' };

const SETTING_PATH = /^\$\.siteFeatureConfigurations\[(\d+)\]\.featureConfig(?:\.([A-Za-z_$][\w$]*)|\['((?:[^'\\]|\\.)*)'\])$/;
const FEATURE_PATH = /^\$\.siteFeatureConfigurations\[(\d+)\](?:\.name|\.featureConfig)?$/;
const TOP_PATH = /^\$\.(name|siteId|theme|\$schema)$/;
const TEXT_PATH = /^line (\d+), column (\d+)$/;

export function placeOf(path: string): VerdictPlace {
  const setting = SETTING_PATH.exec(path);
  if (setting) return { kind: 'setting', feature: Number(setting[1]), key: setting[2] ?? (setting[3] ?? '').replace(/\\(.)/g, '$1') };
  const feature = FEATURE_PATH.exec(path);
  if (feature) return { kind: 'feature', feature: Number(feature[1]) };
  const top = TOP_PATH.exec(path);
  if (top?.[1] !== undefined) return { kind: 'top', key: top[1] };
  const text = TEXT_PATH.exec(path);
  if (text) return { kind: 'json', line: Number(text[1]), column: Number(text[2]) };
  return { kind: 'site' };
}

/** A message as one line: what was expected, and what was found. */
export function messageText({ expected, actual, warning }: CheckMessage): string {
  const text = actual === undefined ? `Expected ${expected}` : `Expected ${expected}, got ${actual}`;
  return warning === true ? `Warning (the site still passes): ${text}` : text;
}

/** The messages of the setting `key` of the feature at `index`. */
export function messagesAt(messages: readonly CheckMessage[], place: VerdictPlace): CheckMessage[] {
  return messages.filter((message) => {
    const at = placeOf(message.path);
    if (at.kind !== place.kind) return false;
    if (at.kind === 'setting' && place.kind === 'setting') return at.feature === place.feature && at.key === place.key;
    if (at.kind === 'feature' && place.kind === 'feature') return at.feature === place.feature;
    if (at.kind === 'top' && place.kind === 'top') return at.key === place.key;
    return true;
  });
}

/**
 * The option texts of a coded setting, each value with what ADR 0001 says it does (the studio's `help.values`): a
 * requirement level as `"3" ProfileOptional: left out of registration…`, a privacy-policy display as `B: shows it
 * optional`. Null for a setting whose values are no codes (its select shows the values themselves).
 */
export function valueLabels(
  key: string,
  node: Readonly<Record<string, unknown>>,
  meanings: Readonly<Record<string, Readonly<Record<string, string>>>>,
): Record<string, string> | null {
  const values = Array.isArray(node.enum) ? node.enum.map(String) : [];
  const isLevel = values.length === LEVEL_CODES.length && LEVEL_CODES.every((code) => values.includes(code));
  const kind = isLevel ? 'level' : key;
  const meaning = meanings[kind];
  if (values.length === 0 || meaning === undefined) return null;
  return Object.fromEntries(
    values.map((value) => {
      const what = meaning[value];
      const name = isLevel ? ` ${LEVEL_BY_CODE[value as LevelCode]}` : '';
      return [value, what === undefined ? `${JSON.stringify(value)}${name}` : `${JSON.stringify(value)}${name}: ${what}`];
    }),
  );
}
