import defaultContent from '../../fixtures/content/en_us.json';
import type { ContentTexts } from '../api/content-api';

/** SPEC §7: when the content call fails the app uses bundled default texts (the en_us fixture). */
const bundled = defaultContent as Record<string, ContentTexts>;
export const DEFAULT_COMMON_TEXTS: ContentTexts = bundled.common ?? {};
export const DEFAULT_ERROR_TEXTS: ContentTexts = bundled.errors ?? {};

/** The content groups the shell and the screens read through `useContentTexts`. */
export type ShellContentGroup = 'common' | 'errors' | 'signIn' | 'carousel' | 'account' | 'profile' | 'optins' | 'cards' | 'concierge' | 'sso';
export const DEFAULT_TEXTS: Readonly<Record<ShellContentGroup, ContentTexts>> = {
  common: DEFAULT_COMMON_TEXTS,
  errors: DEFAULT_ERROR_TEXTS,
  signIn: bundled.signIn ?? {},
  carousel: bundled.carousel ?? {},
  account: bundled.account ?? {},
  profile: bundled.profile ?? {},
  optins: bundled.optins ?? {},
  cards: bundled.cards ?? {},
  concierge: bundled.concierge ?? {},
  sso: bundled.sso ?? {},
};
