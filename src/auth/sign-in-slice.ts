import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { OtpType } from '../api/user-auth-api';
import type { PasscodeChannel } from '../api/user-mgmt-api';

/**
 * What the sign-in steps hand each other (SPEC §2 "needs stored login data", ADR 0008): in memory
 * only, in this slice, never in storage. The password stays here only while a passcode step is
 * pending, because that step re-sends the whole login payload (§3); it is dropped when the flow ends.
 */
export interface PendingSignIn {
  siteId: string;
  locale: string;
  username: string;
  password: string;
  /** The passcode the gateway asked for; null while the person still chooses e-mail or SMS (OTP_REQUIRED). */
  otpType: OtpType | null;
  /** Where the code went, masked (`a***@example.com`); null for an authenticator app or when not known. */
  maskedDestination: string | null;
  /** ADR 0009 "Breached passwords": the code proves the mailbox of a breached password and goes as `vba_token`. */
  breachedPassword: boolean;
}

/** A signed-in re-check (otp-check-preference → otp-check-passcode): the channel the code was sent to. */
export interface PendingOtpCheck {
  channel: PasscodeChannel;
  maskedDestination: string | null;
}

export interface SignInState {
  pending: PendingSignIn | null;
  otpCheck: PendingOtpCheck | null;
}

const initialState: SignInState = { pending: null, otpCheck: null };

export const signInSlice = createSlice({
  name: 'signIn',
  initialState,
  reducers: {
    /** The password was right and the gateway asked for a passcode (OTP_REQUIRED*, MFA_OTP_REQUIRED). */
    passcodeStepStarted(state, action: PayloadAction<PendingSignIn>) {
      state.pending = action.payload;
    },
    /** login-otp-preference: the person chose where the code goes and it was sent. */
    passcodeChannelChosen(state, action: PayloadAction<{ channel: PasscodeChannel; maskedDestination: string | null }>) {
      if (state.pending) {
        state.pending.otpType = action.payload.channel;
        state.pending.maskedDestination = action.payload.maskedDestination;
      }
    },
    otpCheckCodeSent(state, action: PayloadAction<PendingOtpCheck>) {
      state.otpCheck = action.payload;
    },
    /** Signed in, signed out or started afresh: nothing of the last attempt is kept. */
    signInEnded() {
      return initialState;
    },
  },
});

export const { passcodeStepStarted, passcodeChannelChosen, otpCheckCodeSent, signInEnded } = signInSlice.actions;
