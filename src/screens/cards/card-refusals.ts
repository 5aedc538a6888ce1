import type { GatewayError } from '../../api/gateway-api';

/**
 * What the field says for a refusal of a number by ADR 0011's enrolment call, one place for every card
 * screen. `invalid` is SPEC §8's "A valid {product} card is required" (or the site's configured text);
 * a card already on this account says so instead (the number is valid, telling the person it is not
 * sends them looking for a typo); a card another account holds says where to get help, never why; the
 * limit says so. Null: not about the number, the screen shows the card-added banner.
 */
export type CardRefusal = 'invalid' | 'alreadyEnrolled' | 'notAvailable' | 'limitReached';

export function cardRefusalOf(error: Pick<GatewayError, 'code'>): CardRefusal | null {
  switch (error.code) {
    case 'VALIDATION_FAILED':
    case 'CARD_NOT_ELIGIBLE':
      return 'invalid';
    case 'CARD_DUPLICATE':
      return 'alreadyEnrolled';
    case 'CARD_NOT_AVAILABLE':
      return 'notAvailable';
    case 'CARD_LIMIT_REACHED':
      return 'limitReached';
    default:
      return null;
  }
}
