/**
 * Eligibility and product type of a card by its leading digits (docs/decisions/0011-cards-api.md
 * "Eligibility and product type"; SPEC §3 "Validation response: eligible, productType", "Product
 * type codes"). The ranges are data (`fixtures/bin-ranges.json`); the lookup and the fixture check
 * are pure, so the gateway's start-up, `sites:check` and the tests share them.
 */
import type { FixtureMistake } from '../site-config/fixture-check';
import { PRODUCT_TYPE_TEXTS } from './card-rules';

export interface BinRange {
  /** Equal-length digit prefixes (6 to 8 digits), `from` <= `to`: the range covers every prefix between them. */
  from: string;
  to: string;
  /** A SPEC §3 product type code ("C"). */
  productType: string;
  eligible: boolean;
  /** Only these sites use the range; absent: every site. */
  siteIds?: string[];
  /** The issuer's business id, given as the ISSUER_BID metadata of the cards in the range (ADR 0011 asset metadata). */
  issuerBid?: string;
  /**
   * False for cards the issuer has not activated (or has blocked): a site with `pan_capture.check_card_active_status`
   * "true" refuses them (SPEC §3, ADR 0001). Absent: active.
   */
  active?: boolean;
}

/** SPEC §3 "Validation response", plus the issuer of the range that decided it. */
export interface BinMatch {
  eligible: boolean;
  productType: string | null;
  issuerBid: string | null;
}

export const NO_BIN_MATCH: BinMatch = { eligible: false, productType: null, issuerBid: null };

/**
 * The most specific range covering `digits` on `siteId`: the longest prefix wins, then a range
 * limited to the site over one for every site. No match: not eligible, no product type.
 */
export function lookupBinRange(ranges: readonly BinRange[], digits: string, siteId: string): BinMatch {
  const best = mostSpecificRange(ranges, digits, siteId);
  return best === undefined ? NO_BIN_MATCH : { eligible: best.eligible, productType: best.productType, issuerBid: best.issuerBid ?? null };
}

/**
 * SPEC §3 `pan_capture.check_card_active_status`: whether the card is active by the range that decides it
 * (the same most specific range as `lookupBinRange`). A card no range covers is not refused as inactive:
 * it is not eligible, which says more.
 */
export function isCardActive(ranges: readonly BinRange[], digits: string, siteId: string): boolean {
  return mostSpecificRange(ranges, digits, siteId)?.active !== false;
}

function mostSpecificRange(ranges: readonly BinRange[], digits: string, siteId: string): BinRange | undefined {
  let best: BinRange | undefined;
  for (const range of ranges) {
    if (range.siteIds !== undefined && !range.siteIds.includes(siteId)) continue;
    const prefix = digits.slice(0, range.from.length);
    if (prefix.length < range.from.length || prefix < range.from || prefix > range.to) continue;
    if (best === undefined || moreSpecific(range, best)) best = range;
  }
  return best;
}

function moreSpecific(range: BinRange, than: BinRange): boolean {
  if (range.from.length !== than.from.length) return range.from.length > than.from.length;
  return range.siteIds !== undefined && than.siteIds === undefined;
}

const PREFIX = /^[0-9]{6,8}$/;
const ISSUER_BID = /^[0-9]{1,8}$/;
const RANGE_KEYS = new Set(['from', 'to', 'productType', 'eligible', 'siteIds', 'issuerBid', 'active']);

/**
 * The `sites:check` rules for `fixtures/bin-ranges.json`: each range well formed, its product type
 * a SPEC §3 code, its sites known, and no two ranges of the same prefix length and scope overlapping
 * (the lookup could not say which one wins).
 */
export function checkBinRanges(value: unknown, file: string, knownSiteIds: ReadonlySet<string>): FixtureMistake[] {
  const mistakes: FixtureMistake[] = [];
  if (!Array.isArray(value))
    return [{ file, path: '$', expected: 'a list of BIN ranges { "from", "to", "productType", "eligible" }', actual: describe(value) }];
  const wellFormed: { range: BinRange; index: number }[] = [];
  value.forEach((range: unknown, index) => {
    const at = `$[${index}]`;
    const before = mistakes.length;
    const add = (path: string, expected: string, actual?: string) =>
      mistakes.push({ file, path: `${at}${path}`, expected, ...(actual === undefined ? {} : { actual }) });
    if (typeof range !== 'object' || range === null || Array.isArray(range)) return add('', 'a BIN range object', describe(range));
    const entry = range as Record<string, unknown>;
    for (const key of Object.keys(entry)) if (!RANGE_KEYS.has(key)) add(`.${key}`, 'no such key (from, to, productType, eligible, siteIds, issuerBid, active)');
    const { from, to } = entry;
    if (typeof from !== 'string' || !PREFIX.test(from)) add('.from', 'a prefix of 6 to 8 digits', describe(from));
    if (typeof to !== 'string' || !PREFIX.test(to)) add('.to', 'a prefix of 6 to 8 digits', describe(to));
    else if (typeof from === 'string' && PREFIX.test(from)) {
      if (to.length !== from.length) add('.to', `a prefix as long as from (${from.length} digits)`, describe(to));
      else if (to < from) add('.to', `a prefix not below from (${from})`, describe(to));
    }
    if (typeof entry.productType !== 'string' || PRODUCT_TYPE_TEXTS[entry.productType] === undefined) {
      add('.productType', `a product type code of SPEC §3 (${Object.keys(PRODUCT_TYPE_TEXTS).join(', ')})`, describe(entry.productType));
    }
    if (typeof entry.eligible !== 'boolean') add('.eligible', 'true or false', describe(entry.eligible));
    if (entry.active !== undefined && typeof entry.active !== 'boolean') add('.active', 'true or false', describe(entry.active));
    if (entry.issuerBid !== undefined && (typeof entry.issuerBid !== 'string' || !ISSUER_BID.test(entry.issuerBid)))
      add('.issuerBid', 'a text of 1 to 8 digits', describe(entry.issuerBid));
    if (entry.siteIds !== undefined) {
      if (!Array.isArray(entry.siteIds) || entry.siteIds.length === 0) add('.siteIds', 'a non-empty list of site ids', describe(entry.siteIds));
      else
        entry.siteIds.forEach((siteId: unknown, siteIndex) => {
          if (typeof siteId !== 'string' || !knownSiteIds.has(siteId))
            add(`.siteIds[${siteIndex}]`, 'the id of a site in fixtures/sites or "default"', describe(siteId));
        });
    }
    if (mistakes.length === before) wellFormed.push({ range: entry as unknown as BinRange, index });
  });
  wellFormed.forEach(({ range, index }, position) => {
    for (const other of wellFormed.slice(0, position)) {
      if (overlap(range, other.range)) {
        mistakes.push({
          file,
          path: `$[${index}]`,
          expected: `a range not overlapping $[${other.index}] (same prefix length and sites: which one wins is undecidable)`,
          actual: `${range.from}-${range.to}`,
        });
      }
    }
  });
  return mistakes;
}

function overlap(a: BinRange, b: BinRange): boolean {
  if (a.from.length !== b.from.length || a.from > b.to || b.from > a.to) return false;
  if (a.siteIds === undefined || b.siteIds === undefined) return a.siteIds === b.siteIds;
  return a.siteIds.some((siteId) => b.siteIds?.includes(siteId));
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object' && value !== null) return 'an object';
  return JSON.stringify(value);
}
