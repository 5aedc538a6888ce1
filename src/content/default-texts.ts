// Named imports: the build keeps only the groups the app shows, not the mails' texts of the same file.
import { account, cards, carousel, common, concierge, errors, optins, profile, signIn, sso } from '../../fixtures/content/en_us.json';
import type { ContentTexts } from '../api/content-api';

/** SPEC §7: when the content call fails the app uses bundled default texts (the en_us fixture). */
export const DEFAULT_COMMON_TEXTS: ContentTexts = common;
export const DEFAULT_ERROR_TEXTS: ContentTexts = errors;

/** The content groups the shell and the screens read through `useContentTexts`. */
export type ShellContentGroup = 'common' | 'errors' | 'signIn' | 'carousel' | 'account' | 'profile' | 'optins' | 'cards' | 'concierge' | 'sso';
export const DEFAULT_TEXTS: Readonly<Record<ShellContentGroup, ContentTexts>> = {
  common: DEFAULT_COMMON_TEXTS,
  errors: DEFAULT_ERROR_TEXTS,
  signIn,
  carousel,
  account,
  profile,
  optins,
  cards,
  concierge,
  sso,
};
