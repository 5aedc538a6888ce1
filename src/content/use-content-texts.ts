import { useGetContentQuery, type ContentTexts } from '../api/content-api';
import { useSiteLocation } from '../site/use-site-location';
import { DEFAULT_TEXTS, type ShellContentGroup } from './default-texts';

/** A content group of the current site and locale; the bundled defaults while loading or when the call failed (SPEC §7). */
export function useContentTexts(group: ShellContentGroup): ContentTexts {
  const { siteId, locale } = useSiteLocation();
  const content = useGetContentQuery({ siteId, locale, contentType: group });
  return content.data ?? DEFAULT_TEXTS[group];
}
