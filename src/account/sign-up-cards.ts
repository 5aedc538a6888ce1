import type { FormSchema } from '../../schemas/forms/json-schema';
import { featureConfigOf, LEVEL_BY_CODE, type LevelCode, type RequirementLevel, type SiteConfig } from '../../schemas/site-config/types';
import { CARD_NUMBER_MAX_INPUT_LENGTH } from '../../schemas/validators';

/**
 * Cards at sign-up (SPEC §2 add-pan, §3 user_asset_profile, ADR 0009): the site's `pan` level says
 * whether registration goes through the add-pan step, and whether a card is needed there.
 */
export function panLevelAtSignUp(site: SiteConfig): RequirementLevel {
  return LEVEL_BY_CODE[featureConfigOf(site, 'user_asset_profile').pan as LevelCode] ?? 'None';
}

export function capturesCardsAtSignUp(site: SiteConfig): boolean {
  const level = panLevelAtSignUp(site);
  return level === 'Mandatory' || level === 'Optional';
}

/** Text keys the card entry's errors read (SiteForm texts), filled from the site's pan_capture texts. */
export const CARD_ENTRY_TEXT_KEYS = { required: 'addPan.entry.required', invalid: 'addPan.entry.invalid', duplicate: 'addPan.entry.duplicate' } as const;

/**
 * The one-field form of the add-pan step: a card number through the CardNumberWidget, checked by
 * the `cardNumber` rule (SPEC §5: 16 digits starting with 4, input max from pan_capture.maxLength).
 * Issue 8 brings the full card module; until then this is the card input of the registration flow.
 */
export function cardEntryForm(site: SiteConfig): FormSchema {
  const configured = Number(featureConfigOf(site, 'pan_capture').maxLength);
  const maxLength = Number.isInteger(configured) && configured > 0 ? configured : CARD_NUMBER_MAX_INPUT_LENGTH;
  return {
    schema: {
      type: 'object',
      additionalProperties: false,
      properties: { pan: { type: 'string', maxLength, 'x-rule': { name: 'cardNumber', options: { maxLength } } } },
      required: ['pan'],
    },
    uiSchema: {
      pan: {
        'ui:widget': 'CardNumberWidget',
        'ui:autocomplete': 'cc-number',
        'ui:options': { labelKey: 'label.pan', errorTextKeys: { required: CARD_ENTRY_TEXT_KEYS.required, invalid: CARD_ENTRY_TEXT_KEYS.invalid } },
      },
    },
  };
}

/** SPEC §3 "Registration item": pan with spaces removed. */
export function panDigits(pan: string): string {
  return pan.replace(/\s+/g, '');
}
