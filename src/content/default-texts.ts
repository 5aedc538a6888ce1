import defaultContent from '../../fixtures/content/en_us.json';
import type { ContentTexts } from '../api/content-api';

/** SPEC §7: when the content call fails the app uses bundled default texts (the en_us fixture). */
export const DEFAULT_COMMON_TEXTS: ContentTexts = (defaultContent as Record<string, ContentTexts>).common ?? {};
