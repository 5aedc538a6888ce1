import { featureConfigOf, levelOfCode, type RequirementLevel, type SiteConfig } from '../../schemas/site-config/types';

/**
 * Cards at sign-up (SPEC §2 add-pan, §3 user_asset_profile, ADR 0009): the site's `pan` level says
 * whether registration goes through the add-pan step, and whether a card is needed there. The
 * card entry itself is the card module's capture block (src/screens/AddCardScreen.tsx).
 */
export function panLevelAtSignUp(site: SiteConfig): RequirementLevel {
  return levelOfCode(featureConfigOf(site, 'user_asset_profile').pan) ?? 'None';
}

export function capturesCardsAtSignUp(site: SiteConfig): boolean {
  const level = panLevelAtSignUp(site);
  return level === 'Mandatory' || level === 'Optional';
}
