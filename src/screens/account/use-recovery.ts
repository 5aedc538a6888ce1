import { useGetSiteConfigQuery } from '../../api/site-config-api';
import { isStepByStepRecovery } from '../../../schemas/site-config/credential-offers';
import { useSiteLocation } from '../../site/use-site-location';

/** SPEC §2 recovery variants: step-by-step when the locale is pt_br or send_sms is 'true', else current. */
export function useStepByStepRecovery(): boolean {
  const { siteId, locale } = useSiteLocation();
  const site = useGetSiteConfigQuery(siteId).data;
  return site !== undefined && isStepByStepRecovery(site, locale);
}
