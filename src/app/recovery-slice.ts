import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * What the recovery steps hand each other (SPEC §2 recovery variants, ADR 0009): the e-mail the code
 * was asked for and, in the step-by-step variant, the code find-code accepted, so reset-password
 * can send it without asking again. In memory only, never in storage; dropped when recovery ends.
 */
export interface RecoveryState {
  email: string | null;
  /** Set only after find-code answered CODE_OK (step-by-step variant). */
  checkedPasscode: string | null;
}

const initialState: RecoveryState = { email: null, checkedPasscode: null };

export const recoverySlice = createSlice({
  name: 'recovery',
  initialState,
  reducers: {
    recoveryStarted(_state, action: PayloadAction<{ email: string }>) {
      return { email: action.payload.email, checkedPasscode: null };
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

export const { recoveryStarted, recoveryCodeChecked, recoveryEnded } = recoverySlice.actions;
