import { useSelector } from 'react-redux';
import { useKeptFlowStep } from '../../account/use-kept-flow-step';
import { useGetSiteConfigQuery } from '../../api/site-config-api';
import type { PasscodeChannel } from '../../api/user-mgmt-api';
import { isStepByStepRecovery } from '../../../schemas/site-config/credential-offers';
import { useSiteLocation } from '../../site/use-site-location';
import type { RootState } from '../../store';

/** SPEC §2 recovery variants: step-by-step when the locale is pt_br or send_sms is 'true', else current. */
export function useStepByStepRecovery(): boolean {
  const { siteId, locale } = useSiteLocation();
  const site = useGetSiteConfigQuery(siteId).data;
  return site !== undefined && isStepByStepRecovery(site, locale);
}

/** Where a recovery stands: the e-mail the code was asked for and the channel it went by (null until one was chosen). */
export interface RecoveryStep {
  email: string;
  channel: PasscodeChannel | null;
}

function channelOf(kept: unknown): PasscodeChannel | null {
  return kept === 'email' || kept === 'sms' ? kept : null;
}

/**
 * Where the recovery stands (SPEC §2 recovery steps): the store's, else the one kept for this tab (ADR 0019
 * "Flow steps"), so a reload on passcode-preference, passcode or reset-password stays on that step, the code already
 * sent is typed there (ADR 0008 "Codes asked for again"), and asking for a new code offers the channel chosen before.
 * The code itself is never kept.
 */
export function useRecoveryStep(): RecoveryStep | null {
  const email = useSelector((state: RootState) => state.recovery.email);
  const channel = useSelector((state: RootState) => state.recovery.channel);
  return useKeptFlowStep('recovery', email === null ? null : { email, channel }, (kept) =>
    typeof kept.email === 'string' && kept.email !== '' ? { email: kept.email, channel: channelOf(kept.channel) } : null,
  );
}
