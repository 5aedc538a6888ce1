import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useDispatch } from 'react-redux';
import type { GatewayError } from '../../api/gateway-api';
import { authEvent } from '../../auth/auth-slice';
import { freshProofDemandOf, type FreshProofDemand } from '../../auth/fresh-proof';
import { useText } from '../../content/use-text';
import { ConfirmItsYouDialog, type FreshProofOutcome } from './ConfirmItsYouDialog';
import { FormAlert } from './FormAlert';

/** A mutation's answer as RTK Query resolves it: data, or an error. */
type Answer = { error?: unknown };

/** The answer `run` gives when the session ended during the check: the screen treats it as its own call's 401. */
export interface SessionEndedAnswer {
  data?: undefined;
  error: GatewayError;
}

export interface FreshProof {
  /**
   * Sends the screen's call; when the gateway asks for fresh proof (403 FRESH_PROOF_REQUIRED), opens
   * "Confirm it's you" and, once the code passes, sends the same call again (the gateway counts the
   * proof for some minutes), answering that answer. Null when the person cancelled: nothing was sent
   * again and the form keeps what was typed.
   */
  run<R extends Answer>(call: () => PromiseLike<R>): Promise<R | SessionEndedAnswer | null>;
  /** The dialog while it is open, and the "nothing was saved" notice after a cancel: placed above the screen's form. */
  view: ReactNode;
}

interface Pending {
  demand: FreshProofDemand;
  settle: (outcome: FreshProofOutcome) => void;
}

/**
 * Wraps a screen's submit in the fresh-proof step (auth/fresh-proof.ts) so that the person confirms
 * it's them in place, without leaving the form: the typed values stay in the screen's form, which
 * stays mounted under the dialog, and the call is repeated with the same arguments (its closure).
 *
 * When the session ends during the check (a 401 that is not about the code), SPEC §8 applies: the
 * hook sends the person to sign-in, unless the screen owns that failure (`ownsAuthFailure`, as
 * edit-profile does to keep a draft, ADR 0019), in which case the 401 comes back as the call's answer.
 */
export function useFreshProof(options: { ownsAuthFailure?: boolean } = {}): FreshProof {
  const { ownsAuthFailure = false } = options;
  const dispatch = useDispatch();
  const text = useText('signIn');
  const [pending, setPending] = useState<Pending | null>(null);
  const [cancelled, setCancelled] = useState(false);
  // SPEC §2 modal: focus goes back to what opened it. The submit button may have been disabled (and
  // so blurred) while its call ran, so the control is taken when the submit starts, not when the dialog opens.
  const trigger = useRef<HTMLElement | null>(null);
  const returnFocus = useRef(false);
  useEffect(() => {
    if (pending !== null || !returnFocus.current) return;
    returnFocus.current = false;
    if (trigger.current?.isConnected) trigger.current.focus();
  }, [pending]);

  const run = useCallback(
    async <R extends Answer>(call: () => PromiseLike<R>): Promise<R | SessionEndedAnswer | null> => {
      setCancelled(false);
      trigger.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      let answer = await call();
      for (;;) {
        const demand = answer.error === undefined ? null : freshProofDemandOf(answer.error);
        if (demand === null) return answer;
        const outcome = await new Promise<FreshProofOutcome>((settle) => setPending({ demand, settle }));
        returnFocus.current = true;
        setPending(null);
        if (outcome.kind === 'cancelled') {
          setCancelled(true);
          return null;
        }
        if (outcome.kind === 'session-ended') {
          if (!ownsAuthFailure) dispatch(authEvent({ type: 'AUTHENTICATION_FAILED', code: outcome.error.code }));
          return { error: outcome.error };
        }
        // Confirmed: the same call again. Should the gateway still ask (its proof ran out meanwhile), the dialog opens again.
        answer = await call();
      }
    },
    [dispatch, ownsAuthFailure],
  );

  return {
    run,
    view: (
      <>
        {cancelled && <FormAlert kind="info" message={text('freshProof.cancelled')} />}
        {pending !== null && <ConfirmItsYouDialog demand={pending.demand} onDone={pending.settle} />}
      </>
    ),
  };
}
