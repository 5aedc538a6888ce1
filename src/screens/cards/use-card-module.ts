import { useMemo } from 'react';
import { cardConfigOf, cardModuleOptionsOf, MissingCardModuleOptionsError, type CardConfig, type CardModuleOptions } from '../../../schemas/cards/card-config';
import type { CardEntry } from '../../../schemas/cards/card-rules';
import { featureConfigOf, type SiteConfig } from '../../../schemas/site-config/types';
import type { CardAddOutcome } from '../../../widgets/cards/CaptureBlock';
import type { CvvTexts } from '../../../widgets/cards/CvvInput';
import type { GatewayError } from '../../api/gateway-api';
import { useGetSiteConfigQuery } from '../../api/site-config-api';
import { useText, type TextLookup } from '../../content/use-text';
import { useSiteLocation } from '../../site/use-site-location';

export type CardModule =
  | { ready: false }
  | {
      ready: true;
      site: SiteConfig;
      config: CardConfig;
      /** Null when the site lacks them: `optionsError` says so (SPEC §8). */
      options: CardModuleOptions | null;
      optionsError: string | null;
      /** SPEC §2 standalone (isVpp) form: the cms tenant "vpp". */
      standalone: boolean;
      productName: (card: CardEntry) => string;
      /** SPEC §8 invalid or duplicate number: the configured error, else "A valid {product} card is required". */
      invalidText: string;
      /** SPEC §3 `capture_cvv`: the security-code field's texts, undefined where the site asks no code. */
      cvvTexts: CvvTexts | undefined;
      /**
       * The validation call's refusals that are not "not eligible" (ADR 0001): an inactive card (CARD_NOT_ACTIVE)
       * next to the number, a refused security code next to its field; null for any other answer.
       */
      validationRefusal: (error: unknown) => CardAddOutcome | null;
      text: TextLookup;
    };

/** The site's card module (SPEC §3 pan_capture) with the texts every card screen shares. */
export function useCardModule(): CardModule {
  const { siteId } = useSiteLocation();
  const site = useGetSiteConfigQuery(siteId).data;
  const text = useText('cards');
  const module = useMemo(() => {
    if (site === undefined) return null;
    const panCapture = featureConfigOf(site, 'pan_capture');
    const config = cardConfigOf(panCapture);
    let options: CardModuleOptions | null = null;
    let missing = false;
    try {
      options = cardModuleOptionsOf(panCapture);
    } catch (error) {
      if (!(error instanceof MissingCardModuleOptionsError)) throw error;
      missing = true;
    }
    return { site, config, options, missing, standalone: featureConfigOf(site, 'cms').tenant === 'vpp' };
  }, [site]);
  if (module === null) return { ready: false };
  const { config } = module;
  const cvvTexts: CvvTexts | undefined = config.captureCvv
    ? { label: text('cvv.label'), hint: text('cvv.hint'), required: text('cvv.required'), invalid: text('cvv.invalid') }
    : undefined;
  return {
    ready: true,
    site: module.site,
    config,
    options: module.options,
    optionsError: module.missing ? text('missingModuleOptions', { product: config.product }) : null,
    standalone: module.standalone,
    // SPEC §3 product type codes from the cards content of the page's locale (`product.{code}`; a locale without them reads en_us's), as the statement does.
    productName: (card) => {
      const key = card.productType !== null && text(`product.${card.productType}`) !== '' ? `product.${card.productType}` : 'product.fallback';
      return text(key, { product: config.product }).trim();
    },
    invalidText: config.texts.error ?? text('invalidCard', { product: config.product }),
    cvvTexts,
    validationRefusal: (error) => {
      const refusal = error as Partial<GatewayError> | undefined;
      if (refusal?.code === 'CARD_NOT_ACTIVE') return { added: false, error: text('notActive') };
      const cvvKey = refusal?.code === 'VALIDATION_FAILED' ? refusal.fields?.cvv : undefined;
      if (cvvKey !== undefined && cvvTexts !== undefined)
        return { added: false, error: null, cvvError: cvvKey === 'required' ? cvvTexts.required : cvvTexts.invalid };
      return null;
    },
    text,
  };
}
