import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { SiteForm, type SiteFormData } from '../../widgets/SiteForm';
import type { GatewayError } from '../api/gateway-api';
import { useEnrollTotpMutation, useSetUpTotpMutation, useUnenrollTotpMutation, type TotpSetup } from '../api/user-mgmt-api';
import { authEvent } from '../auth/auth-slice';
import { asGatewayError, refusalText as refusalOf, type TextRef } from '../auth/sign-in-flow';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import { Breadcrumb } from './Breadcrumb';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './sign-in/FormAlert';
import { groupedKey, svgDataUrl } from './sign-in/totp-key';
import { useSignedInProfile } from './sign-in/use-profile';
import { useRefusalText } from './sign-in/use-refusal-text';
import { useSiteFormSchema } from './sign-in/use-site-form';

/** The steps of enrolment: not started, scanning the pending secret, done; or, when enrolled, turning it off. */
type MfaStep = { kind: 'start' } | { kind: 'scan'; setup: TotpSetup } | { kind: 'enrolled-now' } | { kind: 'enrolled' } | { kind: 'unenrolled-now' };

/** ADR 0008: a wrong code is the screen's to show; any other 401 means the session ended (§8, back to sign-in). */
const CODE_ERRORS: ReadonlySet<string> = new Set(['OTP_INVALID', 'OTP_EXPIRED', 'VALIDATION_FAILED']);

/**
 * SPEC §2 mfa-setup (signed in): TOTP enrolment (ADR 0008). `mfa/totp/setup` gives a pending secret
 * shown as a QR code and a manual key; a first code from the app confirms it (`enroll`). Enrolled
 * users can turn it off with a current code (`unenroll`).
 */
export function Component() {
  const { siteId } = useSiteLocation();
  const dispatch = useDispatch();
  const profile = useSignedInProfile();
  const form = useSiteFormSchema('passcode');
  const formTexts = useFormTexts();
  const text = useText('signIn');
  const refusalText = useRefusalText();
  const [setUpTotp, settingUp] = useSetUpTotpMutation();
  const [enrollTotp, enrolling] = useEnrollTotpMutation();
  const [unenrollTotp, unenrolling] = useUnenrollTotpMutation();
  const [chosenStep, setStep] = useState<MfaStep | null>(null);
  const [refusal, setRefusal] = useState<TextRef | null>(null);
  const [copied, setCopied] = useState(false);

  const step: MfaStep = chosenStep ?? (profile?.mfaEnrollmentStatus === 'ENROLLED' ? { kind: 'enrolled' } : { kind: 'start' });

  const refuse = (error: GatewayError) => {
    if (error.status === 401 && !CODE_ERRORS.has(error.code)) dispatch(authEvent({ type: 'AUTHENTICATION_FAILED', code: error.code }));
    setRefusal(refusalOf(error));
  };

  const start = async () => {
    setRefusal(null);
    const answer = await setUpTotp({ siteId });
    if (answer.error) refuse(asGatewayError(answer.error));
    else setStep({ kind: 'scan', setup: answer.data });
  };

  const confirm = async (data: SiteFormData, action: 'enroll' | 'unenroll') => {
    setRefusal(null);
    const code = String(data.passcode ?? '');
    const answer = action === 'enroll' ? await enrollTotp({ siteId, code }) : await unenrollTotp({ siteId, code });
    if (answer.error) refuse(asGatewayError(answer.error));
    else setStep({ kind: action === 'enroll' ? 'enrolled-now' : 'unenrolled-now' });
  };

  // The clipboard exists only in secure contexts; without it the key is still there to select.
  const copyKey = (secret: string) => {
    void navigator.clipboard?.writeText(secret).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };

  const codeForm = (action: 'enroll' | 'unenroll', busy: boolean) =>
    form && (
      <SiteForm
        schema={form.schema}
        uiSchema={form.uiSchema}
        texts={formTexts}
        onSubmit={(data) => void confirm(data, action)}
        submitText={text(action === 'enroll' ? 'mfa.enroll' : 'mfa.unenroll')}
        disabled={busy}
      />
    );

  return (
    <section className="sign-in mfa-setup">
      <Breadcrumb />
      <RouteHeading route="mfa-setup" />
      {refusal && <FormAlert kind="error" message={refusalText(refusal)} />}
      {step.kind === 'start' && (
        <>
          <p className="sign-in__intro">{text('mfa.startIntro')}</p>
          <button type="button" className="button button--primary" onClick={() => void start()} disabled={settingUp.isLoading}>
            {text('mfa.start')}
          </button>
        </>
      )}
      {step.kind === 'scan' && (
        <>
          <p className="sign-in__intro">{text('mfa.scanIntro')}</p>
          <img className="mfa-setup__qr" src={svgDataUrl(step.setup.qrSvg)} alt={text('mfa.qrAlt')} width={200} height={200} />
          <p className="mfa-setup__key-label" id="mfa-key-label">
            {text('mfa.manualKey')}
          </p>
          <p className="mfa-setup__key">
            <code aria-labelledby="mfa-key-label" data-testid="totp-key">
              {groupedKey(step.setup.secret)}
            </code>
            <button type="button" className="link-button" onClick={() => copyKey(step.setup.secret)}>
              {text('mfa.copy')}
            </button>
            <span role="status">{copied ? text('mfa.copied') : ''}</span>
          </p>
          {codeForm('enroll', enrolling.isLoading)}
        </>
      )}
      {step.kind === 'enrolled-now' && <FormAlert kind="success" message={text('mfa.enrolledNow')} />}
      {step.kind === 'enrolled' && (
        <>
          <p className="sign-in__intro">{text('mfa.enrolled')}</p>
          <p>{text('mfa.unenrollIntro')}</p>
          {codeForm('unenroll', unenrolling.isLoading)}
        </>
      )}
      {step.kind === 'unenrolled-now' && <FormAlert kind="success" message={text('mfa.unenrolledNow')} />}
    </section>
  );
}
