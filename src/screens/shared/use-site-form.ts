import { useMemo } from 'react';
import { buildFormSchema } from '../../../schemas/forms/build-form-schema';
import type { FormName } from '../../../schemas/forms/form-names';
import type { FormSchema } from '../../../schemas/forms/json-schema';
import { useGetSiteConfigQuery } from '../../api/site-config-api';
import { useSiteLocation } from '../../site/use-site-location';

/** A form of the current site as the translator builds it (product rule: every form comes from the site configuration); null until the configuration is there. */
export function useSiteFormSchema(form: FormName): FormSchema | null {
  const { siteId, locale } = useSiteLocation();
  const site = useGetSiteConfigQuery(siteId);
  return useMemo(() => (site.data ? buildFormSchema(site.data, locale, form) : null), [site.data, locale, form]);
}
