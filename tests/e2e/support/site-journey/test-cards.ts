import { readFileSync } from 'node:fs';
import { isCardActive, lookupBinRange, type BinRange } from '../../../../schemas/cards/bin-ranges';
import { REPO_ROOT } from '../paths';

const readBinRanges = (): BinRange[] => JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/bin-ranges.json`, 'utf8')) as BinRange[];

/** The Luhn check digit that makes `body` + digit a valid number. */
function luhnCheckDigit(body: string): string {
  let sum = 0;
  for (let index = 0; index < body.length; index += 1) {
    // Counting from the right of the finished number, the body's last digit is doubled.
    let digit = Number(body[body.length - 1 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

/**
 * `count` distinct 16-digit, Luhn-valid card numbers the gateway finds eligible for `siteId`
 * (fixtures/bin-ranges.json: an eligible range open to every site or naming this one), one per
 * range first, so a run never depends on a number another test enrolled.
 */
export function eligibleTestCards(siteId: string, count: number): string[] {
  const ranges = readBinRanges().filter(
    // An inactive range (ADR 0001 check_card_active_status) is refused on most sites: never a journey's card.
    (range) => range.eligible && range.active !== false && (range.siteIds === undefined || range.siteIds.includes(siteId)),
  );
  if (ranges.length === 0) throw new Error(`no eligible BIN range for ${siteId} in fixtures/bin-ranges.json`);
  const cards: string[] = [];
  for (let serial = 0; cards.length < count; serial += 1) {
    const range = ranges[serial % ranges.length]!;
    const middle = String(7_310 + Math.floor(serial / ranges.length) * 97).padStart(15 - range.from.length, '3');
    const body = `${range.from}${middle}`.slice(0, 15);
    cards.push(`${body}${luhnCheckDigit(body)}`);
  }
  return cards;
}

/** The number as a person types it: four groups of four (SPEC §5). */
export function groupedCard(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * A bin field's value for `siteId` (SPEC §5 bin: `length` digits, the card's first digits): the
 * leading digits of an eligible, active range of fixtures/bin-ranges.json, kept only when the
 * gateway's own lookup (the most specific range, ADR 0011) finds that prefix eligible and active on
 * the site, so a site with six_digit_verification or a site-only range gets a bin its cards match.
 */
export function eligibleBin(siteId: string, length: number): string {
  const ranges = readBinRanges();
  for (const range of ranges) {
    if (!range.eligible || range.active === false || (range.siteIds !== undefined && !range.siteIds.includes(siteId))) continue;
    const bin = range.from.padEnd(length, '0').slice(0, length);
    if (lookupBinRange(ranges, bin, siteId).eligible && isCardActive(ranges, bin, siteId)) return bin;
  }
  throw new Error(`no eligible, active BIN range for ${siteId} gives a ${length}-digit bin in fixtures/bin-ranges.json`);
}
