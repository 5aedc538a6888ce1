import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import { Link, useLocation, type Location } from 'react-router-dom';
import { SiteForm, type SiteFormData } from '../../widgets/SiteForm';
import { dropFlowStep } from '../account/form-drafts';
import { useKeptFlowStep } from '../account/use-kept-flow-step';
import type { GatewayError } from '../api/gateway-api';
import {
  useEnrollTotpMutation,
  useBackupCodesLeftQuery,
  useRenewBackupCodesMutation,
  useSetUpTotpMutation,
  useUnenrollTotpMutation,
  type SecondFactor,
  type TotpSetup,
} from '../api/user-mgmt-api';
import { asGatewayError, refusalText as refusalOf, type TextRef } from '../api/gateway-error';
import { useGetSiteConfigQuery } from '../api/site-config-api';
import { secureContextClipboard } from '../app/secure-context-clipboard';
import { authEvent } from '../auth/auth-slice';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { isMfaRequired } from '../routes/route-guards';
import { useSiteLocation } from '../site/use-site-location';
import { Breadcrumb } from './Breadcrumb';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './shared/FormAlert';
import { useSignedInProfile } from './shared/use-profile';
import { useFreshProof } from './shared/use-fresh-proof';
import { useRefusalText } from './shared/use-refusal-text';
import { useSiteFormSchema } from './shared/use-site-form';
import { BackupCodeForm } from './sign-in/BackupCodeForm';
import { BackupCodesPanel } from './sign-in/BackupCodesPanel';
import { groupedKey, svgDataUrl } from './sign-in/totp-key';
import './sign-in/sign-in.css';

/**
 * The steps of enrolment: not started, scanning the pending secret, the backup codes shown once,
 * done; or, when enrolled, new codes or turning it off.
 */
type MfaStep =
  | { kind: 'start' }
  | { kind: 'scan'; setup: TotpSetup }
  | { kind: 'codes'; codes: string[]; then: 'enrolled-now' | 'enrolled' }
  | { kind: 'enrolled-now' }
  | { kind: 'enrolled' }
  | { kind: 'unenrolled-now' };

type CodeAction = 'enroll' | 'unenroll' | 'renew';
/**
 * What an enrolled person may do, one form at a time (two code forms at once would share the site
 * form's field id); each task's button names what its form's submit then does.
 */
type EnrolledTask = 'renew' | 'unenroll' | 'lost-phone';
const ENROLLED_TASKS: readonly EnrolledTask[] = ['renew', 'unenroll', 'lost-phone'];
const TASK_TEXT: Readonly<Record<EnrolledTask, string>> = { renew: 'mfa.codes.renew', unenroll: 'mfa.unenroll', 'lost-phone': 'mfa.lostPhone.submit' };
const SUBMIT_TEXT: Readonly<Record<CodeAction, string>> = { enroll: 'mfa.enroll', unenroll: 'mfa.unenroll', renew: 'mfa.codes.renew' };

/** Set by the sign-in that spent a backup code (use-sign-in-steps.ts). */
function backupCodesLeftOf(state: unknown): number | null {
  const left = (state as { backupCodesLeft?: unknown } | null)?.backupCodesLeft;
  return typeof left === 'number' ? left : null;
}

/** ADR 0008: a wrong code is the screen's to show; any other 401 means the session ended (§8, back to sign-in). */
const CODE_ERRORS: ReadonlySet<string> = new Set(['OTP_INVALID', 'OTP_EXPIRED', 'OTP_SPENT', 'VALIDATION_FAILED']);

/**
 * SPEC §2 mfa-setup (signed in): TOTP enrolment (ADR 0008). `mfa/totp/setup` gives a pending secret
 * shown as a QR code and a manual key; a first code from the app confirms it (`enroll`) and hands out
 * the backup codes, shown once. Enrolled users see how many codes are left, can get new ones, and
 * can turn it off with a current code or, the phone lost, a backup code (`unenroll`). A new
 * authenticator lets its holder into the account, so the gateway may first ask the person to confirm
 * it's them before `setup` and `enroll` (shared/use-fresh-proof); the same call goes again after.
 * The scan step is kept for the tab (ADR 0019 "Flow steps"), never its secret: after a reload or Back/Forward the
 * screen asks for the set-up again, and the gateway answers the same pending secret for 10 minutes (ADR 0008
 * "Set-up asked for again"), so a key already added to the app still enrols. Enrolling ends the step.
 */
export function Component() {
  const { siteId, basePath } = useSiteLocation();
  const location: Location<unknown> = useLocation();
  const { state, search } = location;
  const dispatch = useDispatch();
  const profile = useSignedInProfile();
  const form = useSiteFormSchema('passcode');
  const formTexts = useFormTexts();
  const text = useText('signIn');
  const common = useText('common');
  const refusalText = useRefusalText();
  const [setUpTotp, settingUp] = useSetUpTotpMutation();
  const [enrollTotp, enrolling] = useEnrollTotpMutation();
  const [unenrollTotp, unenrolling] = useUnenrollTotpMutation();
  const [renewCodes, renewing] = useRenewBackupCodesMutation();
  const enrolledNow = profile?.mfaEnrollmentStatus === 'ENROLLED';
  const codesLeft = useBackupCodesLeftQuery({ siteId }, { skip: !enrolledNow });
  const signedInWithBackupCode = backupCodesLeftOf(state);
  // After a backup code the likely task is the lost phone's.
  const [chosenTask, setChosenTask] = useState<EnrolledTask | null>(null);
  const openTask: EnrolledTask | null = chosenTask ?? (signedInWithBackupCode !== null ? 'lost-phone' : null);
  const chooseTask = (task: EnrolledTask) => {
    setRefusal(null);
    setChosenTask(task);
  };
  const [chosenStep, setStep] = useState<MfaStep | null>(null);
  const [refusal, setRefusal] = useState<TextRef | null>(null);
  const [copied, setCopied] = useState(false);
  // Its calls own their 401s (TOTP_CALL); `refuse` sends an ended session to sign-in.
  const freshProof = useFreshProof({ ownsAuthFailure: true });

  const step: MfaStep = chosenStep ?? (profile?.mfaEnrollmentStatus === 'ENROLLED' ? { kind: 'enrolled' } : { kind: 'start' });
  const mfaOn = step.kind === 'enrolled' || step.kind === 'enrolled-now' || step.kind === 'codes';
  const site = useGetSiteConfigQuery(siteId).data;
  // The bank that requires it (SPEC §3 site name), on a site with mfa "required".
  const requiredBy = site !== undefined && isMfaRequired(site) ? site.name : null;
  const keptScan = useKeptFlowStep('mfa-setup', step.kind === 'scan' ? { scanning: true } : null, (kept) =>
    kept.scanning === true ? { scanning: true } : null,
  );

  const refuse = (error: GatewayError) => {
    if (error.status === 401 && !CODE_ERRORS.has(error.code)) dispatch(authEvent({ type: 'AUTHENTICATION_FAILED', code: error.code }));
    setRefusal(refusalOf(error));
  };

  const start = async () => {
    setRefusal(null);
    const answer = await freshProof.run(() => setUpTotp({ siteId }));
    if (answer === null) return;
    if (answer.error) refuse(asGatewayError(answer.error));
    else setStep({ kind: 'scan', setup: answer.data });
  };

  const confirm = async (data: SiteFormData, action: CodeAction) => {
    setRefusal(null);
    const code = String(data.passcode ?? '');
    if (action === 'unenroll') {
      await turnOff({ code });
      return;
    }
    const answer = action === 'enroll' ? await freshProof.run(() => enrollTotp({ siteId, code })) : await renewCodes({ siteId, code });
    if (answer === null) return;
    if (answer.error) refuse(asGatewayError(answer.error));
    else {
      if (action === 'enroll') dropFlowStep('mfa-setup');
      setStep({ kind: 'codes', codes: answer.data.backupCodes, then: action === 'enroll' ? 'enrolled-now' : 'enrolled' });
    }
  };

  // Back on a kept scan step (a reload, Back/Forward): the set-up is asked for again, once, and shows the same key.
  const resumed = useRef(false);
  const resumeScan = keptScan !== null && chosenStep === null && profile !== null && profile.mfaEnrollmentStatus !== 'ENROLLED';
  const resume = useEffectEvent(() => void start());
  useEffect(() => {
    if (!resumeScan || resumed.current) return;
    resumed.current = true;
    resume();
  }, [resumeScan]);

  const turnOff = async (proof: SecondFactor) => {
    setRefusal(null);
    const answer = await unenrollTotp({ siteId, ...proof });
    if (answer.error) refuse(asGatewayError(answer.error));
    else setStep({ kind: 'unenrolled-now' });
  };

  // The clipboard exists only in secure contexts; without it the key is still there to select.
  const copyKey = (secret: string) => {
    void secureContextClipboard()
      ?.writeText(secret)
      .then(
        () => setCopied(true),
        () => setCopied(false),
      );
  };

  const codeForm = (action: CodeAction, busy: boolean) =>
    form && (
      <SiteForm
        schema={form.schema}
        uiSchema={form.uiSchema}
        texts={formTexts}
        onSubmit={(data) => void confirm(data, action)}
        submitText={text(SUBMIT_TEXT[action])}
        disabled={busy}
      />
    );

  return (
    <section className="sign-in mfa-setup">
      <Breadcrumb />
      {/* Once it is on, the page manages two-step verification: its title no longer says "Set up". */}
      <RouteHeading route="mfa-setup" title={mfaOn ? common('title.mfa-setup.on') : undefined} />
      {/* A site with mfa "required" holds every other page until it is set up (route guard mfaRequired): say that the bank asks it. */}
      {requiredBy !== null && (step.kind === 'start' || step.kind === 'scan') && <FormAlert kind="info" message={text('mfa.required', { bank: requiredBy })} />}
      {signedInWithBackupCode !== null && step.kind === 'enrolled' && (
        <div className="mfa-setup__recovered">
          <FormAlert kind="success" message={text('mfa.backupCodeUsed', { count: signedInWithBackupCode })} />
          <p>
            <Link to={`${basePath}profile${search}`}>{text('mfa.continue')}</Link>
          </p>
        </div>
      )}
      {refusal && <FormAlert kind="error" message={refusalText(refusal)} />}
      {freshProof.view}
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
            {/* Left to right on every page: on a right-to-left page its digit groups would otherwise swap places (UAX #9 N1). */}
            <code aria-labelledby="mfa-key-label" data-testid="totp-key" dir="ltr">
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
      {step.kind === 'codes' && <BackupCodesPanel codes={step.codes} onSaved={() => setStep({ kind: step.then })} />}
      {step.kind === 'enrolled-now' && <FormAlert kind="success" message={text('mfa.enrolledNow')} />}
      {step.kind === 'enrolled' && (
        <>
          <p className="sign-in__intro">{text('mfa.enrolled')}</p>
          {codesLeft.data && <p data-testid="backup-codes-left">{text('mfa.codes.left', { count: codesLeft.data.remaining })}</p>}
          <p className="mfa-setup__tasks">
            {ENROLLED_TASKS.filter((task) => task !== openTask).map((task) => (
              <button key={task} type="button" className="link-button" onClick={() => chooseTask(task)}>
                {text(TASK_TEXT[task])}
              </button>
            ))}
          </p>
          {openTask === 'renew' && (
            <>
              <p>{text('mfa.codes.renewIntro')}</p>
              {codeForm('renew', renewing.isLoading)}
            </>
          )}
          {openTask === 'unenroll' && (
            <>
              <p>{text('mfa.unenrollIntro')}</p>
              {codeForm('unenroll', unenrolling.isLoading)}
            </>
          )}
          {openTask === 'lost-phone' && (
            <>
              <p>{text('mfa.lostPhone')}</p>
              <BackupCodeForm submitText={text('mfa.lostPhone.submit')} busy={unenrolling.isLoading} onSubmit={(backupCode) => void turnOff({ backupCode })} />
            </>
          )}
        </>
      )}
      {step.kind === 'unenrolled-now' && <FormAlert kind="success" message={text('mfa.unenrolledNow')} />}
    </section>
  );
}
