/**
 * SPEC §3 "Card config fields" (pan_capture) read once into the shape the card screens use, and
 * the module options whose absence is SPEC §8's "Missing required options" error.
 */
import type { CardCall } from '../api/contract';
import { featureConfigOf, type SiteConfig } from '../site-config/types';
import { CARD_NUMBER_MAX_INPUT_LENGTH } from '../validators/card-number';
import { cardLimitOf } from './card-rules';

export interface CardTexts {
  label?: string;
  placeholder?: string;
  submitText?: string;
  deleteLinkText?: string;
  error?: string;
  panAddRequireMessage?: string;
  optInText?: string;
  panCancelButtonText?: string;
  panDeleteRequiredMessage?: string;
  panDeleteSuccessMessage?: string;
  panAddSuccessMessage?: string;
}

export interface CardConfig {
  /** `{product}` of the texts: pan_capture.name. */
  product: string;
  limit: number;
  optional: boolean;
  /** SPEC §2 capture block "card input (only when validation is on)". */
  validate: boolean;
  maxLength: number;
  /** SPEC §6 "Set-default and remove depend on a pan-update-allowed flag". */
  updateAllowed: boolean;
  cashbackEnabled: boolean;
  /** SPEC §3 `check_card_active_status`: a card the BIN table marks inactive is refused (CARD_NOT_ACTIVE, ADR 0001). */
  checkActiveStatus: boolean;
  /** SPEC §3 `capture_cvv`: the card forms ask the three-digit security code, sent to the validation call only. */
  captureCvv: boolean;
  texts: CardTexts;
}

const TEXT_FIELDS = [
  'label',
  'placeholder',
  'submitText',
  'deleteLinkText',
  'error',
  'panAddRequireMessage',
  'optInText',
  'panCancelButtonText',
  'panDeleteRequiredMessage',
  'panDeleteSuccessMessage',
  'panAddSuccessMessage',
] as const satisfies readonly (keyof CardTexts)[];

export function cardConfigOf(panCapture: Readonly<Record<string, string>>): CardConfig {
  const maxLength = Number(panCapture.maxLength);
  const texts: CardTexts = {};
  for (const field of TEXT_FIELDS) {
    const value = panCapture[field];
    if (value !== undefined && value.trim() !== '') texts[field] = value;
  }
  return {
    product: panCapture.name ?? '',
    limit: cardLimitOf(panCapture.limit),
    optional: panCapture.optional === 'true',
    // Validation is on unless the site turns it off.
    validate: panCapture.validate !== 'false',
    maxLength: Number.isInteger(maxLength) && maxLength > 0 ? maxLength : CARD_NUMBER_MAX_INPUT_LENGTH,
    updateAllowed: panCapture.pan_update_allowed !== 'false',
    cashbackEnabled: panCapture.cashback_enabled === 'true',
    checkActiveStatus: panCapture.check_card_active_status === 'true',
    captureCvv: panCapture.capture_cvv === 'true',
    texts,
  };
}

/** SPEC §3 card config options: where the §7 asset calls go. */
export interface CardModuleOptions {
  assetsUrl: string;
  assetsValidationUrl: string;
  /** With `{{id}}` where the card's id goes. */
  updateAssetUrl: string;
}

/** SPEC §8 "Missing card module options throws …"; the message is the text's template, `{product}` filled by the screen. */
export class MissingCardModuleOptionsError extends Error {
  constructor() {
    super('Missing required options for {product}PanModule. Please provide the required options.');
    this.name = 'MissingCardModuleOptionsError';
  }
}

/**
 * ADR 0001 `pan_capture.cashback_enabled`: a programme without cashback has no cashback statement (SPEC §2
 * cashback-statement, §6). The one answer for the menus, the statement screen and the gateway's `my-cashback`.
 */
export function offersCashbackStatement(site: SiteConfig): boolean {
  return cardConfigOf(featureConfigOf(site, 'pan_capture')).cashbackEnabled;
}

export function cardModuleOptionsOf(panCapture: Readonly<Record<string, string>>): CardModuleOptions {
  const { assetsUrl, assetsValidationUrl, updateAssetUrl } = panCapture;
  if (!assetsUrl || !assetsValidationUrl || !updateAssetUrl || !updateAssetUrl.includes('{{id}}')) throw new MissingCardModuleOptionsError();
  return { assetsUrl, assetsValidationUrl, updateAssetUrl };
}

/**
 * The four card calls' paths from a site's `pan_capture` options (SPEC §7: the validation and enrolment URLs,
 * "POST {assets url}/{id}/remove-asset", `updateAssetUrl` with `{{id}}`), `idSegment` standing where the id goes:
 * one card's encoded id in the browser (`cardCallPathsFor`), the route's `:id` at the gateway (ADR 0011).
 */
export function cardCallPaths(options: CardModuleOptions, idSegment: string): Record<CardCall, string> {
  return {
    validate: options.assetsValidationUrl,
    enrol: options.assetsUrl,
    remove: `${options.assetsUrl}/${idSegment}/remove-asset`,
    setDefault: options.updateAssetUrl.replace('{{id}}', idSegment),
  };
}

/** The card calls' paths for one card, its id encoded as a path segment. */
export function cardCallPathsFor(options: CardModuleOptions, id: string): Record<CardCall, string> {
  return cardCallPaths(options, encodeURIComponent(id));
}
