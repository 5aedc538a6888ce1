import { useDispatch, useSelector } from 'react-redux';
import { dropFlowStep } from '../../account/form-drafts';
import { useKeptFlowStep } from '../../account/use-kept-flow-step';
import { useLocation, useNavigate } from 'react-router-dom';
import type { TextRef } from '../../api/gateway-error';
import type { OtpType } from '../../api/user-auth-api';
import { finishSignIn } from '../../auth/session-steps';
import type { SignInStep } from '../../auth/sign-in-flow';
import { passcodeStepStarted } from '../../auth/sign-in-slice';
import { useSiteLocation } from '../../site/use-site-location';
import type { RootState } from '../../store';
import { useBrowserSession, useGoOnAfterSignIn } from '../shared/browser-session';

export interface Credentials {
  username: string;
  password: string;
}

/**
 * Takes the sign-in flow to the step an answer decided (auth/sign-in-flow.ts): on to the passcode
 * or channel screen with the login data kept in memory, or signed in and on to the returnurl (or to
 * compromised-credentials when the password is on the breached list, ADR 0009; to mfa-setup after a
 * backup code). A
 * refusal comes back as the text the current screen shows.
 */
export function useSignInSteps(): (step: SignInStep, credentials: Credentials, options?: { trustedDevice?: boolean }) => TextRef | null {
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const { search } = useLocation();
  const site = useSiteLocation();
  const session = useBrowserSession();
  const goOn = useGoOnAfterSignIn();

  const startPasscodeStep = (
    credentials: Credentials,
    step: { otpType: OtpType | null; maskedDestination: string | null; breachedPassword: boolean },
    route: 'login-otp' | 'login-otp-preference',
  ) => {
    dispatch(passcodeStepStarted({ siteId: site.siteId, locale: site.locale, ...credentials, ...step }));
    void navigate(`${site.basePath}${route}${search}`);
  };

  return (step, credentials, options = {}) => {
    switch (step.kind) {
      case 'signed-in':
        dropFlowStep('sign-in');
        // Signed in: the account is active, so a kept "check your e-mail" (registration, new activation link) is over.
        dropFlowStep('registration');
        dropFlowStep('activation-resend');
        finishSignIn(session, site, { expiresIn: step.expiresIn, trustedDevice: options.trustedDevice === true });
        // ADR 0009: a listed password is replaced before anything else; the returnurl waits in storage.
        if (step.passwordCompromised) void navigate(`${site.basePath}compromised-credentials${search}`, { replace: true });
        // A backup code stood in for a lost phone: mfa-setup says how many are left and offers a new phone.
        else if (step.backupCodesLeft !== null)
          void navigate(`${site.basePath}mfa-setup${search}`, { replace: true, state: { backupCodesLeft: step.backupCodesLeft } });
        else goOn(site.basePath);
        return null;
      case 'enter-passcode':
        startPasscodeStep(
          credentials,
          { otpType: step.otpType, maskedDestination: step.maskedDestination, breachedPassword: step.breachedPassword },
          'login-otp',
        );
        return null;
      case 'choose-passcode-channel':
        startPasscodeStep(credentials, { otpType: null, maskedDestination: null, breachedPassword: false }, 'login-otp-preference');
        return null;
      case 'refused':
        return step.text;
      case 'unavailable':
        return null;
    }
  };
}

/** Who stands at the passcode step, and how its code comes (null while the channel is not chosen yet). */
export interface KeptPasscodeStep {
  username: string;
  otpType: OtpType | null;
}

function otpTypeOf(kept: unknown): OtpType | null {
  return kept === 'email' || kept === 'sms' || kept === 'totp' ? kept : null;
}

/**
 * Who stands at the passcode step (ADR 0019 "Flow steps"), kept for this tab while the step is pending. That step
 * re-sends the password, which is never kept, so after a reload the sign-in form comes back with the user name
 * filled in and says why; the code already sent still works (ADR 0008 "Codes asked for again"). The channel is kept
 * too, so that page speaks of a code sent only when one was: an authenticator's code is never sent.
 */
export function useKeptPasscodeStep(): KeptPasscodeStep | null {
  const pending = useSelector((state: RootState) => state.signIn.pending);
  return useKeptFlowStep('sign-in', pending === null ? null : { username: pending.username, otpType: pending.otpType }, (kept) =>
    typeof kept.username === 'string' && kept.username !== '' ? { username: kept.username, otpType: otpTypeOf(kept.otpType) } : null,
  );
}
