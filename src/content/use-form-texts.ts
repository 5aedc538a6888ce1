import { useMemo } from 'react';
import { formTextsFromContent, type FormTexts } from '../../widgets/form-engine/form-texts';
import { useGetContentQuery } from '../api/content-api';
import { useSiteLocation } from '../site/use-site-location';

/** The texts a SiteForm reads: the site's `form` and `common` content as one flat map (the widgets fall back to en_us). */
export function useFormTexts(): FormTexts {
  const { siteId, locale } = useSiteLocation();
  const form = useGetContentQuery({ siteId, locale, contentType: 'form' });
  const common = useGetContentQuery({ siteId, locale, contentType: 'common' });
  return useMemo(() => formTextsFromContent({ form: form.data, common: common.data }), [form.data, common.data]);
}
