import { describe, expect, it } from 'vitest';
import type { EnrolledAsset } from '../../../schemas/api/enrolled-asset';
import { cardEntriesOf, cardEntryOf } from '../../../schemas/cards/card-assets';
import { cardConfigOf, cardModuleOptionsOf, MissingCardModuleOptionsError, cardCallPaths, cardCallPathsFor } from '../../../schemas/cards/card-config';
import {
  canAddCard,
  canSetDefault,
  cardLimitOf,
  cardNumberProblem,
  cardRequired,
  cardStatus,
  isDuplicateCard,
  isEligibleAnswer,
  removalRefusal,
  withDefaultCard,
  withFirstCardDefault,
  type CardEntry,
} from '../../../schemas/cards/card-rules';
import firstbank from '../../../fixtures/sites/firstbank.json';

function card(id: string, overrides: Partial<CardEntry> = {}): CardEntry {
  return { id, lastFour: id.padStart(4, '0'), productType: null, isDefault: false, cardId: null, cashbackStatus: null, ...overrides };
}

describe('SPEC §4 card status in the list', () => {
  it('pending when newly enrolled, else eligible with an identifier, else not eligible', () => {
    const eligible = card('1', { cardId: 'vop-1' });
    expect(cardStatus(eligible, new Set(['1']))).toBe('pending');
    expect(cardStatus(eligible, new Set())).toBe('eligible');
    expect(cardStatus(card('2'), new Set())).toBe('not eligible');
    expect(cardStatus(card('3', { cardId: '' }), new Set())).toBe('not eligible');
  });

  // One card, one status: the profile's badge and Manage cards both ask this function.
  it("follows the gateway's status where it gives one: a card in its first day (ADR 0011) is pending, identifier or not", () => {
    expect(cardStatus(card('1', { cardId: 'vop-1', cashbackStatus: 'PENDING' }))).toBe('pending');
    expect(cardStatus(card('2', { cardId: 'vop-2', cashbackStatus: 'ELIGIBLE' }))).toBe('eligible');
    expect(cardStatus(card('3', { cashbackStatus: 'NOT_ELIGIBLE' }))).toBe('not eligible');
    expect(cardStatus(card('4', { cardId: 'vop-4', cashbackStatus: 'ELIGIBLE' }), new Set(['4']))).toBe('pending');
  });
});

describe('SPEC §4, §5, §9 limit, default and removal', () => {
  it('the limit defaults to unbounded (maximum safe integer); the add form hides when the count reaches it', () => {
    expect(cardLimitOf(undefined)).toBe(Number.MAX_SAFE_INTEGER);
    expect(cardLimitOf('')).toBe(Number.MAX_SAFE_INTEGER);
    expect(cardLimitOf('many')).toBe(Number.MAX_SAFE_INTEGER);
    expect(cardLimitOf('2')).toBe(2);
    // A limit of 0 is a site that takes no cards, not an unbounded one.
    expect(cardLimitOf('0')).toBe(0);
    expect(canAddCard(0, cardLimitOf('0'))).toBe(false);
    expect(cardLimitOf('-1')).toBe(Number.MAX_SAFE_INTEGER);
    expect(cardLimitOf(' ')).toBe(Number.MAX_SAFE_INTEGER);
    expect(cardLimitOf('1.5')).toBe(Number.MAX_SAFE_INTEGER);
    expect(canAddCard(1, 2)).toBe(true);
    expect(canAddCard(2, 2)).toBe(false);
  });

  it('set as default only for a non-default card and only when updates are allowed; it marks only that card', () => {
    const cards = [card('1', { isDefault: true }), card('2')];
    expect(canSetDefault(cards[1] as CardEntry, true)).toBe(true);
    expect(canSetDefault(cards[1] as CardEntry, false)).toBe(false);
    expect(canSetDefault(cards[0] as CardEntry, true)).toBe(false);
    expect(withDefaultCard(cards, '2').map((entry) => entry.isDefault)).toEqual([false, true]);
  });

  it('the first card becomes default when none is', () => {
    expect(withFirstCardDefault([card('1'), card('2')]).map((entry) => entry.isDefault)).toEqual([true, false]);
    expect(withFirstCardDefault([card('1'), card('2', { isDefault: true })]).map((entry) => entry.isDefault)).toEqual([false, true]);
    expect(withFirstCardDefault([])).toEqual([]);
  });

  it('removal only with more than one card and not the default; the only card is refused as the last card, optional site or not', () => {
    const two = [card('1', { isDefault: true }), card('2')];
    expect(removalRefusal(two, two[1] as CardEntry)).toBeNull();
    expect(removalRefusal(two, two[0] as CardEntry)).toBe('default');
    // The only card is the last-card refusal, not "set another card as default first": there is no other card.
    const one = [card('1', { isDefault: true })];
    expect(removalRefusal(one, one[0] as CardEntry)).toBe('lastCard');
    const lone = [card('1')];
    expect(removalRefusal(lone, lone[0] as CardEntry)).toBe('lastCard');
  });

  it('a card is required unless the config is optional or a card exists', () => {
    expect(cardRequired(false, 0)).toBe(true);
    expect(cardRequired(false, 1)).toBe(false);
    expect(cardRequired(true, 0)).toBe(false);
  });
});

describe('SPEC §5 card number as the capture block checks it', () => {
  it('16 digits starting with 4 passing Luhn, spaces ignored; empty only when not required', () => {
    expect(cardNumberProblem('4111 1111 1111 1111', { required: true })).toBeNull();
    expect(cardNumberProblem('4111111111111111', { required: true })).toBeNull();
    expect(cardNumberProblem('4111 1111 1111 1112', { required: true })).toBe('invalid');
    expect(cardNumberProblem('5555 5555 5555 4444', { required: true })).toBe('invalid');
    expect(cardNumberProblem('4111 1111 1111', { required: true })).toBe('invalid');
    expect(cardNumberProblem('', { required: true })).toBe('required');
    expect(cardNumberProblem('', { required: false })).toBeNull();
  });

  it('the standalone form requires single spaces between the groups', () => {
    expect(cardNumberProblem('4111111111111111', { required: true, standalone: true })).toBe('invalid');
    expect(cardNumberProblem('4111 1111 1111 1111', { required: true, standalone: true })).toBeNull();
  });

  it('a duplicate of a listed number is invalid, whatever its spaces', () => {
    expect(isDuplicateCard('4111111111111111', ['4111 1111 1111 1111'])).toBe(true);
    expect(isDuplicateCard('4012 8888 8888 1881', ['4111 1111 1111 1111'])).toBe(false);
    expect(cardNumberProblem('4111111111111111', { required: true, listed: ['4111 1111 1111 1111'] })).toBe('duplicate');
  });

  it('server eligibility must answer eligible true; anything else (a failed call) is ineligible', () => {
    expect(isEligibleAnswer({ eligible: true, productType: 'C' })).toBe(true);
    expect(isEligibleAnswer({ eligible: false, productType: null })).toBe(false);
    expect(isEligibleAnswer({ eligible: 'true' })).toBe(false);
    expect(isEligibleAnswer(undefined)).toBe(false);
    expect(isEligibleAnswer(null)).toBe(false);
  });
});

describe('SPEC §3 card config and module options', () => {
  it('reads pan_capture: limit, optional, validate, maxLength, update and cashback flags, configured texts', () => {
    const panCapture = firstbank.siteFeatureConfigurations.find((feature) => feature.name === 'pan_capture')?.featureConfig as unknown as Record<
      string,
      string
    >;
    const config = cardConfigOf(panCapture);
    expect(config).toMatchObject({ product: 'FirstBank', limit: 5, optional: true, validate: true, maxLength: 19, updateAllowed: true, cashbackEnabled: true });
    expect(config.texts.error).toBe('A valid FirstBank card is required');
    expect(cardConfigOf({ pan_update_allowed: 'false', validate: 'false', maxLength: '0' })).toMatchObject({
      product: '',
      limit: Number.MAX_SAFE_INTEGER,
      optional: false,
      validate: false,
      maxLength: 19,
      updateAllowed: false,
      cashbackEnabled: false,
      texts: {},
    });
  });

  it('the call paths come from assetsUrl, assetsValidationUrl and updateAssetUrl with {{id}}', () => {
    const options = cardModuleOptionsOf({
      assetsUrl: 'user-attribute/user/assets',
      assetsValidationUrl: 'user-attribute/user/assets/validation',
      updateAssetUrl: 'user-attribute/user/assets/{{id}}',
    });
    expect(cardCallPathsFor(options, 'a 1')).toEqual({
      validate: 'user-attribute/user/assets/validation',
      enrol: 'user-attribute/user/assets',
      remove: 'user-attribute/user/assets/a%201/remove-asset',
      setDefault: 'user-attribute/user/assets/a%201',
    });
    // The gateway's route patterns are the same paths with its `:id` (gateway/cards/card-call-paths.ts).
    expect(cardCallPaths(options, ':id').remove).toBe('user-attribute/user/assets/:id/remove-asset');
  });

  it('missing options throw SPEC §8 "Missing required options for {product}PanModule…"', () => {
    expect(() => cardModuleOptionsOf({ assetsUrl: 'x', assetsValidationUrl: 'y' })).toThrow(MissingCardModuleOptionsError);
    expect(() => cardModuleOptionsOf({ assetsUrl: 'x', assetsValidationUrl: 'y', updateAssetUrl: 'z' })).toThrow(
      'Missing required options for {product}PanModule. Please provide the required options.',
    );
  });
});

describe('SPEC §3 enrolled asset to card entry', () => {
  const asset = (assetId: string, isDefaultAsset: boolean, vop?: string): EnrolledAsset => ({
    assetId,
    id: assetId,
    siteId: 'firstbank',
    assetType: { name: 'PAN' },
    isDefaultAsset,
    defaultAsset: isDefaultAsset,
    cashbackStatus: 'PENDING',
    metadata: [
      { name: 'LAST_FOUR', value: '1111' },
      { name: 'PRODUCT_TYPE', value: 'C' },
      ...(vop ? [{ name: 'VOP_CARD_ID', value: vop } as const] : []),
      { name: 'ISSUER_BID', value: '10' },
    ],
  });

  it('keeps the last four, product type, identifier and cashback status; never more of the number', () => {
    expect(cardEntryOf(asset('a1', true, 'vop-1'))).toEqual({
      id: 'a1',
      lastFour: '1111',
      productType: 'C',
      isDefault: true,
      cardId: 'vop-1',
      cashbackStatus: 'PENDING',
    });
    // A status outside the contract, as a newer gateway might answer: the app shows none rather than a wrong one.
    const unknownStatus = { ...asset('a2', false), cashbackStatus: 'UNKNOWN' } as unknown as EnrolledAsset;
    expect(cardEntryOf(unknownStatus)).toMatchObject({ cardId: null, cashbackStatus: null });
  });

  it('the list makes the first card default when the gateway marks none', () => {
    expect(cardEntriesOf([asset('a1', false), asset('a2', false)]).map((entry) => entry.isDefault)).toEqual([true, false]);
  });
});
