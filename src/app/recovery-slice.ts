import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { PasscodeChannel } from '../api/user-mgmt-api';

/**
 * What the recovery steps hand each other (SPEC §2 recovery variants, ADR 0009): the e-mail the code
 * was asked for, the channel it was asked by (step-by-step variant: asking again offers the same one) and,
 * in the step-by-step variant, the code find-code accepted, so reset-password can send it without asking
 * again. In memory only; the e-mail and the channel, never the code, are also kept for the tab (ADR 0019
 * "Flow steps"). Dropped when recovery ends.
 */
export interface RecoveryState {
  email: string | null;
  /** Set when passcode-preference sent the code (step-by-step variant). */
  channel: PasscodeChannel | null;
  /** Set only after find-code answered CODE_OK (step-by-step variant). */
  checkedPasscode: string | null;
}

const initialState: RecoveryState = { email: null, channel: null, checkedPasscode: null };

export const recoverySlice = createSlice({
  name: 'recovery',
  initialState,
  reducers: {
    recoveryStarted(_state, action: PayloadAction<{ email: string }>) {
      return { email: action.payload.email, channel: null, checkedPasscode: null };
    },
    /** The code was sent by `channel` for `email` (the store may have lost the e-mail to a reload: it is set again). */
    recoveryCodeSent(state, action: PayloadAction<{ email: string; channel: PasscodeChannel }>) {
      state.email = action.payload.email;
      state.channel = action.payload.channel;
    },
    recoveryCodeChecked(state, action: PayloadAction<{ passcode: string }>) {
      state.checkedPasscode = action.payload.passcode;
    },
    /** The password was reset, or the person starts afresh: nothing of the attempt is kept. */
    recoveryEnded() {
      return initialState;
    },
  },
});

export const { recoveryStarted, recoveryCodeSent, recoveryCodeChecked, recoveryEnded } = recoverySlice.actions;
