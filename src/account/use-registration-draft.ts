import { useEffect, useState } from 'react';
import { NavigationType, useNavigationType } from 'react-router-dom';
import { dropFlowStep, dropRegistrationDraft } from './form-drafts';
import { useKeptFlowStep } from './use-kept-flow-step';

/** The SPEC §2 registration steps: the kept draft belongs to them. */
const REGISTRATION_STEP = /\/(?:registration|add-pan)\/?$/;

/**
 * Drops the kept registration fields when the person leaves the registration steps (sign-in link,
 * any other page), so they do not come back on a later visit. A reload unloads the page without
 * unmounting, so the draft stays for the restored form; by the time a navigation unmounts the step
 * the address already names the next page, which tells leaving from moving between the two steps.
 */
export function useDropRegistrationDraftOnLeaving(): void {
  useEffect(
    () => () => {
      if (!REGISTRATION_STEP.test(window.location.pathname)) dropRegistrationDraft();
    },
    [],
  );
}

/**
 * The address a sent registration's "check your e-mail" names (ADR 0009 CHECK_EMAIL), the registration flow's last
 * step (ADR 0019 "Flow steps"): `sentNow` once this screen sent it, else the one kept for this tab, so a reload or
 * Back/Forward on registration or add-pan shows that answer again, not an empty form that invites a second account.
 * The address is what the person typed and the page shows; nothing else is kept. Leaving the registration steps
 * by a link (not Back or Forward, which a `popstate` tells) ends the flow, and so do activating and signing in.
 * Coming in by a link ("Create an account" after Back out of the flow) starts a new registration: the answer is
 * kept for the history's entries, not for every later visit.
 */
export function useSentRegistration(sentNow: string | null): string | null {
  // How this screen was entered, not how the address changes while it shows (sending replaces nothing).
  const [enteredByLink] = useState(useNavigationType() === NavigationType.Push);
  const step = useKeptFlowStep(
    'registration',
    sentNow === null ? null : { email: sentNow },
    (kept) => (typeof kept.email === 'string' && kept.email !== '' ? { email: kept.email } : null),
    { startAfresh: enteredByLink },
  );
  const answered = step !== null;
  useEffect(() => {
    if (!answered) return;
    let byHistory = false;
    const onHistory = () => {
      byHistory = true;
    };
    window.addEventListener('popstate', onHistory);
    return () => {
      window.removeEventListener('popstate', onHistory);
      // As for the draft above: by the time the step unmounts, the address names the page the person went to.
      if (!byHistory && !REGISTRATION_STEP.test(window.location.pathname)) dropFlowStep('registration');
    };
  }, [answered]);
  return step?.email ?? null;
}
