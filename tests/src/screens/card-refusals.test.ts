import { describe, expect, it } from 'vitest';
import { cardRefusalOf } from '../../../src/screens/cards/card-refusals';

describe('cardRefusalOf: an enrolment refusal as what the card field says (ADR 0011)', () => {
  it('a card already on the account says so, not that the number is invalid', () => {
    expect(cardRefusalOf({ code: 'CARD_DUPLICATE' })).toBe('alreadyEnrolled');
  });

  it('an ineligible or malformed number is SPEC §8 "A valid {product} card is required"', () => {
    expect(cardRefusalOf({ code: 'CARD_NOT_ELIGIBLE' })).toBe('invalid');
    expect(cardRefusalOf({ code: 'VALIDATION_FAILED' })).toBe('invalid');
  });

  it("another account's card and the limit have their own texts; anything else is not about the number", () => {
    expect(cardRefusalOf({ code: 'CARD_NOT_AVAILABLE' })).toBe('notAvailable');
    expect(cardRefusalOf({ code: 'CARD_LIMIT_REACHED' })).toBe('limitReached');
    expect(cardRefusalOf({ code: 'INTERNAL_ERROR' })).toBeNull();
  });
});
