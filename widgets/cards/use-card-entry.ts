import { useState } from 'react';

/** What sending a checked number came to: the error to show under the input (or null), and whether to empty it. */
export interface CardEntryOutcome {
  error: string | null;
  clear: boolean;
}

/**
 * The typed card number of a card form (capture block, standalone form): its value, its error (SPEC §5 "error
 * flag clears on input") and the check-then-send step with its loading state (§4 "validating with button
 * disabled and loading").
 */
export function useCardEntry(checkNumber: (value: string) => string | null) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  const checkThenSend = async (send: (value: string) => Promise<CardEntryOutcome>): Promise<void> => {
    const problem = checkNumber(value);
    if (problem !== null) {
      setError(problem);
      return;
    }
    setChecking(true);
    try {
      const outcome = await send(value);
      setError(outcome.error);
      if (outcome.clear) setValue('');
    } finally {
      setChecking(false);
    }
  };

  const inputProps = {
    value,
    error,
    disabled: checking,
    onChange: (next: string) => {
      setValue(next);
      setError(null);
    },
  };
  return { value, checking, checkThenSend, inputProps };
}
