import { useMemo } from 'react';
import { formTextsFromContent, type FormTexts } from '../../widgets/form-engine/form-texts';
import { useGetContentQuery } from '../api/content-api';
import { useSiteLocation } from '../site/use-site-location';

/**
 * The texts a SiteForm reads: the site's `form` and `common` content as one flat map (the widgets
 * fall back to en_us), plus `optins` for a form that shows marketing opt-ins (registration).
 */
export function useFormTexts(options: { withOptIns?: boolean } = {}): FormTexts {
  const { siteId, locale } = useSiteLocation();
  const form = useGetContentQuery({ siteId, locale, contentType: 'form' });
  const common = useGetContentQuery({ siteId, locale, contentType: 'common' });
  const optins = useGetContentQuery({ siteId, locale, contentType: 'optins' }, { skip: options.withOptIns !== true });
  return useMemo(() => formTextsFromContent({ form: form.data, common: common.data, optins: optins.data }), [form.data, common.data, optins.data]);
}
