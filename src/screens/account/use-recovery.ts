import { useSelector } from 'react-redux';
import { useKeptFlowStep } from '../../account/use-kept-flow-step';
import { useGetSiteConfigQuery } from '../../api/site-config-api';
import { isStepByStepRecovery } from '../../../schemas/site-config/credential-offers';
import { useSiteLocation } from '../../site/use-site-location';
import type { RootState } from '../../store';

/** SPEC §2 recovery variants: step-by-step when the locale is pt_br or send_sms is 'true', else current. */
export function useStepByStepRecovery(): boolean {
  const { siteId, locale } = useSiteLocation();
  const site = useGetSiteConfigQuery(siteId).data;
  return site !== undefined && isStepByStepRecovery(site, locale);
}

/**
 * The e-mail the recovery code was asked for (SPEC §2 recovery steps): the store's, else the one kept for this tab
 * (ADR 0019 "Flow steps"), so a reload on passcode-preference, passcode or reset-password stays on that step and the
 * code already sent is typed there (ADR 0008 "Codes asked for again"). The code itself is never kept.
 */
export function useRecoveryEmail(): string | null {
  const email = useSelector((state: RootState) => state.recovery.email);
  const step = useKeptFlowStep('recovery', email === null ? null : { email }, (kept) =>
    typeof kept.email === 'string' && kept.email !== '' ? { email: kept.email } : null,
  );
  return step?.email ?? null;
}
