import { pluralFormOf } from './counted-text';
import { DEFAULT_LOCALE, LOCALES, languageScript } from './locale-table';

/**
 * Which content files answer a locale, nearest first (SPEC §1 "multi-language", §7 content; ADR 0013
 * "Content fallback by language"). A page in es_mx reads es_mx's own texts, then those of the nearest
 * Spanish it has (es_419, Latin American Spanish: es_co), then any Spanish, and only then en_us. The
 * steps are CLDR's parent locales (supplemental `parentLocales`, then truncation), so traditional
 * Chinese (zh_hk, zh_tw, zh_mo: parent `zh_hant`, whose parent is the root) never answers a simplified
 * Chinese page (zh_cn: parent `zh`), and the other way round. Pure: the table of locales and the
 * list of content files in, a list of content files out.
 */

/** The root of CLDR's tree: what is left after the language; en_us stands for it (SPEC §9 default). */
const ROOT = 'root';

/**
 * CLDR's explicit parents (supplemental parentLocales) for the languages of the locale table; the
 * rest truncate: fr_be -> fr. Group ids (`es_419`, `en_001`) are steps of the tree, not locales of
 * the table, and truncate to their language. A locale whose script is not its language's (zh_hk:
 * Hant, from the table's script column) gets the branch `<language>_<script>`, whose parent is the root.
 */
const CLDR_PARENT_LOCALES: Readonly<Record<string, readonly string[]>> = {
  // Latin American Spanish.
  es_419: [
    'es_ar',
    'es_bo',
    'es_br',
    'es_bz',
    'es_cl',
    'es_co',
    'es_cr',
    'es_cu',
    'es_do',
    'es_ec',
    'es_gt',
    'es_hn',
    'es_mx',
    'es_ni',
    'es_pa',
    'es_pe',
    'es_pr',
    'es_py',
    'es_sv',
    'es_us',
    'es_uy',
    'es_ve',
  ],
  // European Portuguese: `pt` itself is Brazilian in CLDR.
  pt_pt: ['pt_ao', 'pt_ch', 'pt_cv', 'pt_gq', 'pt_gw', 'pt_lu', 'pt_mo', 'pt_mz', 'pt_st', 'pt_tl'],
  // International English (`en` itself is American English in CLDR).
  en_001: [
    'en_ag',
    'en_au',
    'en_bb',
    'en_bs',
    'en_bw',
    'en_bz',
    'en_ca',
    'en_cm',
    'en_cy',
    'en_dm',
    'en_fj',
    'en_gb',
    'en_gd',
    'en_gh',
    'en_gi',
    'en_gy',
    'en_hk',
    'en_id',
    'en_ie',
    'en_il',
    'en_in',
    'en_jm',
    'en_ke',
    'en_kn',
    'en_ky',
    'en_lc',
    'en_mt',
    'en_mu',
    'en_mw',
    'en_my',
    'en_na',
    'en_ng',
    'en_nz',
    'en_pg',
    'en_pk',
    'en_sg',
    'en_tt',
    'en_tz',
    'en_ug',
    'en_vc',
    'en_za',
    'en_zm',
    'en_zw',
  ],
  // Macao's traditional Chinese follows Hong Kong's.
  zh_hk: ['zh_mo'],
};

const EXPLICIT_PARENT: ReadonlyMap<string, string> = new Map(
  Object.entries(CLDR_PARENT_LOCALES).flatMap(([parent, children]) => children.map((child) => [child, parent] as const)),
);

/** A script branch of a language (`zh_hant`, `pa_arab`): its parent is the root, not the language. */
const SCRIPT_BRANCH = /^[a-z]{2,3}_[a-z]{4}$/;

/** One step up CLDR's tree; ROOT after a language or a script branch. */
function parentOf(node: string): string {
  if (SCRIPT_BRANCH.test(node)) return ROOT;
  const explicit = EXPLICIT_PARENT.get(node);
  if (explicit !== undefined) return explicit;
  const entry = LOCALES.get(node);
  if (entry && entry.script !== languageScript(entry.language)) return `${entry.language}_${entry.script.toLowerCase()}`;
  const cut = node.lastIndexOf('_');
  return cut > 0 ? node.slice(0, cut) : ROOT;
}

/**
 * The locale and its ancestors up to, not including, the root: es_mx -> [es_mx, es_419, es];
 * zh_hk -> [zh_hk, zh_hant]; a locale outside the table (ADR 0013: no guessing) is only itself.
 */
export function localeLineage(locale: string): string[] {
  if (!LOCALES.has(locale)) return [locale];
  const lineage: string[] = [];
  for (let node = locale; node !== ROOT && !lineage.includes(node); node = parentOf(node)) lineage.push(node);
  return lineage;
}

/**
 * The content files that answer `locale`, nearest first, ending with en_us: at each step of the
 * locale's lineage, every available file under that step (the step itself first, then the closer
 * before the farther, then by code, so the answer never depends on the order files were read).
 * es_mx with es_co available: [es_co, en_us]; pt_pt with pt_br: [pt_br, en_us]; zh_cn with only
 * zh_hk: [en_us].
 */
export function contentFallbackChain(locale: string, available: Iterable<string>): string[] {
  const files = [...available];
  const chain: string[] = [];
  for (const step of localeLineage(locale)) {
    const under = files
      .filter((file) => !chain.includes(file))
      .map((file) => ({ file, depth: localeLineage(file).indexOf(step) }))
      .filter(({ depth }) => depth >= 0)
      .sort((a, b) => a.depth - b.depth || a.file.localeCompare(b.file));
    chain.push(...under.map(({ file }) => file));
  }
  if (!chain.includes(DEFAULT_LOCALE)) chain.push(DEFAULT_LOCALE);
  return chain;
}

/**
 * One content group for a locale from the groups of its chain, nearest first, key by key (a key
 * es_co lacks comes from en_us). A counted text is one unit: its forms all come from the nearest
 * file that writes any of them, so an English `.one` never mixes into a translation that wrote
 * only `.other` (ADR 0013 "Counted texts").
 */
export function mergeContentTexts(layers: readonly (Readonly<Record<string, string>> | undefined)[]): Record<string, string> {
  const merged: Record<string, string> = {};
  const countedTexts = new Set<string>();
  for (const layer of layers) {
    const countedHere = new Set<string>();
    for (const [key, text] of Object.entries(layer ?? {})) {
      if (Object.hasOwn(merged, key)) continue;
      const plural = pluralFormOf(key);
      if (plural && countedTexts.has(plural.base)) continue;
      if (plural) countedHere.add(plural.base);
      merged[key] = text;
    }
    for (const base of countedHere) countedTexts.add(base);
  }
  return merged;
}
