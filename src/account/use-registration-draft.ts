import { useEffect } from 'react';
import { dropRegistrationDraft } from './form-drafts';

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
