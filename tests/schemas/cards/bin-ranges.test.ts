import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkBinRanges, lookupBinRange, type BinRange } from '../../../schemas/cards/bin-ranges';
import { isLuhnValid } from '../../../schemas/validators/card-number';

/** docs/decisions/0011-cards-api.md "Eligibility and product type" (SPEC §3 validation response, product type codes). */
const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
const fixtureRanges = JSON.parse(readFileSync(join(FIXTURES, 'bin-ranges.json'), 'utf8')) as BinRange[];
const siteIds = new Set([...readdirSync(join(FIXTURES, 'sites')).map((name) => name.replace(/\.json$/, '')), 'default']);

describe('fixtures/bin-ranges.json: the well-known test numbers mean something (fixtures/README.md)', () => {
  it.each([
    ['4111111111111111', 'firstbank', { eligible: true, productType: 'C' }],
    ['4242424242424242', 'firstbank', { eligible: true, productType: 'F' }],
    ['4012888888881881', 'firstbank', { eligible: true, productType: 'I' }],
    ['4000056655665556', 'bancosol', { eligible: true, productType: 'P' }],
    // The documented ineligible numbers: a range marked not eligible, and a number no range covers.
    ['4100000000000019', 'firstbank', { eligible: false, productType: 'L' }],
    ['4917610000000000', 'firstbank', { eligible: false, productType: null }],
    // The site-specific range: harbourbank's own cards, not eligible elsewhere.
    ['4444333322221111', 'harbourbank', { eligible: true, productType: 'G1' }],
    ['4444333322221111', 'firstbank', { eligible: false, productType: 'F' }],
  ])('%s on %s', (digits, siteId, expected) => {
    expect(isLuhnValid(digits)).toBe(true);
    expect(lookupBinRange(fixtureRanges, digits, siteId)).toMatchObject(expected);
  });

  it('passes its own check', () => {
    expect(checkBinRanges(fixtureRanges, 'bin-ranges.json', siteIds)).toEqual([]);
  });
});

describe('lookupBinRange', () => {
  const ranges: BinRange[] = [
    { from: '400000', to: '404999', productType: 'F', eligible: true },
    { from: '40500000', to: '40500009', productType: 'P', eligible: true, issuerBid: '123' },
    { from: '405000', to: '405000', productType: 'N', eligible: false },
    { from: '405000', to: '405000', productType: 'I', eligible: true, siteIds: ['northbank'] },
  ];

  it('covers every prefix from `from` to `to`, both included', () => {
    expect(lookupBinRange(ranges, '4000000000000002', 'firstbank').productType).toBe('F');
    expect(lookupBinRange(ranges, '4049990000000000', 'firstbank').productType).toBe('F');
    expect(lookupBinRange(ranges, '4100000000000019', 'firstbank')).toEqual({ eligible: false, productType: null, issuerBid: null });
  });

  it('the ranges of this test are themselves a valid fixture', () => {
    expect(checkBinRanges(ranges, 'ranges', siteIds)).toEqual([]);
  });

  it('the longest prefix wins, and gives its issuer', () => {
    expect(lookupBinRange(ranges, '4050000012345678', 'firstbank')).toEqual({ eligible: true, productType: 'P', issuerBid: '123' });
    expect(lookupBinRange(ranges, '4050000012345678', 'northbank').productType).toBe('P');
  });

  it('at the same length a range limited to the site wins over one for every site', () => {
    expect(lookupBinRange(ranges, '4050001000000000', 'firstbank')).toMatchObject({ eligible: false, productType: 'N' });
    expect(lookupBinRange(ranges, '4050001000000000', 'northbank')).toMatchObject({ eligible: true, productType: 'I' });
  });

  it('a number shorter than the prefix matches nothing', () => {
    expect(lookupBinRange(ranges, '40500', 'firstbank')).toEqual({ eligible: false, productType: null, issuerBid: null });
  });
});

describe('checkBinRanges (npm run sites:check)', () => {
  const good = { from: '411111', to: '411111', productType: 'C', eligible: true };
  const check = (value: unknown) => checkBinRanges(value, 'bin-ranges.json', siteIds);

  it('names the file, the JSON path and what was expected for each mistake', () => {
    expect(check({})).toEqual([{ file: 'bin-ranges.json', path: '$', expected: expect.stringContaining('a list of BIN ranges'), actual: 'an object' }]);
    expect(
      check([
        { ...good, from: '4111' },
        { ...good, from: '411111', to: '4111119' },
        { ...good, from: '411112', to: '411110' },
        { ...good, productType: 'Z9' },
        { ...good, eligible: 'yes' },
        { ...good, siteIds: ['nowhere'] },
        { ...good, issuerBid: '4111111111111111' },
        { ...good, bin: '411111' },
      ]).map(({ path, actual }) => [path, actual]),
    ).toEqual([
      ['$[0].from', '"4111"'],
      ['$[1].to', '"4111119"'],
      ['$[2].to', '"411110"'],
      ['$[3].productType', '"Z9"'],
      ['$[4].eligible', '"yes"'],
      ['$[5].siteIds[0]', '"nowhere"'],
      ['$[6].issuerBid', '"4111111111111111"'],
      ['$[7].bin', undefined],
    ]);
  });

  it('refuses two ranges of the same length and scope that overlap, and allows a site-specific one over a general one', () => {
    const overlapping = check([{ ...good, from: '411100', to: '411199' }, good]);
    expect(overlapping).toEqual([
      { file: 'bin-ranges.json', path: '$[1]', expected: expect.stringContaining('not overlapping $[0]'), actual: '411111-411111' },
    ]);
    expect(
      check([
        { ...good, siteIds: ['firstbank'] },
        { ...good, siteIds: ['northbank', 'firstbank'] },
      ]),
    ).toHaveLength(1);
    expect(check([good, { ...good, siteIds: ['firstbank'] }, { ...good, siteIds: ['northbank'] }, { ...good, from: '41111100', to: '41111199' }])).toEqual([]);
  });
});
