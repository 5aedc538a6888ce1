import { useEffect, useRef, useState } from 'react';
import { asGatewayError } from '../../api/gateway-error';

/**
 * The codes whose Retry-After says when the same action may be tried again: ADR 0008 limits, a passcode send the
 * mail server refused, and the gateway's database or counter store away for a moment (README "Database outage").
 */
const WAIT_CODES = new Set(['RATE_LIMITED', 'DELIVERY_UNAVAILABLE', 'SERVICE_UNAVAILABLE']);

/** The text beside a wait: an outage is not the person's doing, so it does not say "too many requests". */
export function waitTextKeyOf(failure: unknown): 'error.rateLimitedWait' | 'error.unavailableWait' {
  return asGatewayError(failure).code === 'SERVICE_UNAVAILABLE' ? 'error.unavailableWait' : 'error.rateLimitedWait';
}

/** The seconds a refusal asks to wait (its Retry-After), or null when it does not ask. */
export function retryWaitOf(failure: unknown): number | null {
  const error = asGatewayError(failure);
  return WAIT_CODES.has(error.code) && error.retryAfterSeconds !== undefined && error.retryAfterSeconds > 0 ? error.retryAfterSeconds : null;
}

export type RetryPhase = 'idle' | 'waiting' | 'ready';

export interface RetryCountdown {
  /** Whole seconds left, counted from the clock (not from ticks), so a slow tab never drifts. */
  secondsLeft: number;
  /** The wait announced when it started: `waiting` from the start to the end, then `ready`. */
  phase: RetryPhase;
  startedWith: number;
  start(seconds: number): void;
}

/**
 * A wait the gateway asked for (Retry-After), ticking down live and ending by itself: the screen
 * disables its action while `secondsLeft` > 0 and enables it again at 0.
 */
export function useRetryCountdown(): RetryCountdown {
  const [until, setUntil] = useState<number | null>(null);
  const [startedWith, setStartedWith] = useState(0);
  const [phase, setPhase] = useState<RetryPhase>('idle');
  const [now, setNow] = useState(() => Date.now());
  const ticking = useRef<number | null>(null);
  const stopTicking = () => {
    if (ticking.current !== null) window.clearInterval(ticking.current);
    ticking.current = null;
  };
  useEffect(() => stopTicking, []);

  return {
    secondsLeft: until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000)),
    phase,
    startedWith,
    start(seconds) {
      const current = Date.now();
      const end = current + seconds * 1000;
      stopTicking();
      setNow(current);
      setUntil(end);
      setStartedWith(seconds);
      setPhase('waiting');
      // Armed when the wait is asked for, not by an effect after the next render: the count starts with it.
      ticking.current = window.setInterval(() => {
        const tick = Date.now();
        setNow(tick);
        if (tick >= end) {
          stopTicking();
          setUntil(null);
          setPhase('ready');
        }
      }, 250);
    },
  };
}
