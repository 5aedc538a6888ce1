import { useState } from 'react';
import { accountRefusal, type AccountRefusal } from '../../account/account-refusals';
import { useRefusalText } from '../shared/use-refusal-text';

/**
 * A screen's last refusal (account/account-refusals.ts): the alert's words, if any, and the field
 * errors for SiteForm `serverErrors`. `refuse` takes a gateway error; `clear` starts a new attempt.
 */
export function useAccountRefusal(options: { fieldPrefix?: string } = {}) {
  const refusalText = useRefusalText();
  const [refusal, setRefusal] = useState<AccountRefusal | null>(null);
  return {
    alertMessage: refusal?.alert ? refusalText(refusal.alert) : null,
    /** Undefined while there is nothing to show; a new object per refusal (SiteForm compares by identity). */
    serverErrors: refusal?.fields,
    refuse: (error: unknown) => setRefusal(accountRefusal(error, options)),
    clear: () => setRefusal(null),
  };
}
