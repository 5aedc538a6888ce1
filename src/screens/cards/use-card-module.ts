import { useMemo } from 'react';
import { cardConfigOf, cardModuleOptionsOf, MissingCardModuleOptionsError, type CardConfig, type CardModuleOptions } from '../../../schemas/cards/card-config';
import type { CardEntry } from '../../../schemas/cards/card-rules';
import { featureConfigOf, type SiteConfig } from '../../../schemas/site-config/types';
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
  return {
    ready: true,
    site: module.site,
    config,
    options: module.options,
    optionsError: module.missing ? text('missingModuleOptions', { product: config.product }) : null,
    standalone: module.standalone,
    // SPEC §3 product type codes from the cards content (only en_us has them, so every locale reads those), as the statement does.
    productName: (card) => {
      const key = card.productType !== null && text(`product.${card.productType}`) !== '' ? `product.${card.productType}` : 'product.fallback';
      return text(key, { product: config.product }).trim();
    },
    invalidText: config.texts.error ?? text('invalidCard', { product: config.product }),
    text,
  };
}
