import { useEffect, useMemo, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { localeToLanguageTag } from '../../schemas/locales/locale-table';
import { textLookup } from '../../widgets/form-engine/form-texts';
import { dropProfileDraft, keepProfileDraft, readProfileDraft } from '../account/form-drafts';
import type { SiteFormData } from '../../widgets/SiteForm';
import { asGatewayError } from '../api/gateway-error';
import { useIsConcierge } from '../auth/use-is-concierge';
import { attributesConflictOf, useGetUserSiteRecordQuery, useSaveChangedAttributesMutation } from '../api/user-attribute-api';
import { useUpdateProfileMutation } from '../api/user-mgmt-api';
import { notificationShown } from '../app/alerts-slice';
import { notifyMobileApp } from '../app/mobile-bridge';
import { GLOBAL_ERROR_STATUSES } from '../app/error-catalogue';
import { STORAGE } from '../app/storage-names';
import { authEvent } from '../auth/auth-slice';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import { AccountForm } from './account/AccountForm';
import { useAccountRefusal } from './account/use-account-refusal';
import { changedAttributes, initialAttributeValues, type AttributeValues } from './profile/changed-attributes';
import { withoutFieldsEditedElsewhere } from './profile/profile-forms';
import { Breadcrumb } from './Breadcrumb';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './shared/FormAlert';
import { useFreshProof } from './shared/use-fresh-proof';
import { useSignedInProfile } from './shared/use-profile';
import { useSiteFormSchema } from './shared/use-site-form';
import './profile/profile.css';

/** The form error key of a field another window changed (ADR 0010 409 `fields: { key: "changed" }`). */
const CHANGED_ELSEWHERE = 'profile.edit.changedElsewhere';

/** Where the form stands: the values it started from, the version they were read at, and what it shows now. */
interface Draft {
  baseline: AttributeValues;
  baseVersion: number;
  shown: AttributeValues;
  /** Counts reloads after a conflict: a new form shows the other window's values with their messages. */
  generation: number;
  /** The attributes are saved but copying them into the profile (user-mgmt/user/update) failed: the next save retries it. */
  profileCopyPending: boolean;
}

type Notice = { kind: 'error' | 'success'; message: string } | null;

/**
 * SPEC §2 edit-profile (profile-update guard): the site's edit-profile form from the schema engine
 * (no password, confirm, e-mail, national id or privacy policy, §5), prefilled from the site
 * attributes and the profile. Saving sends ONLY the changed keys with the version they were read at
 * (`POST user-attribute/v2/user/{siteId}`), then `POST user-mgmt/user/update` (ADR 0010), so two
 * windows editing different fields both keep their changes; when another window changed a field
 * this one changed too (409 ATTRIBUTES_CHANGED), the form says so next to that field and shows the
 * new value: nothing is overwritten silently. A changed phone is a way into the account (passcodes by
 * SMS, SPEC §2 otp checks), so the gateway may first ask the person to confirm it's them: the
 * dialog opens over the form, and the same save goes again once they have (shared/use-fresh-proof).
 */
export function Component() {
  const { siteId, locale, basePath } = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const siteForm = useSiteFormSchema('edit-profile');
  const form = useMemo(() => (siteForm ? withoutFieldsEditedElsewhere(siteForm) : null), [siteForm]);
  const profile = useSignedInProfile();
  const concierge = useIsConcierge();
  const record = useGetUserSiteRecordQuery({ siteId, concierge });
  const baseTexts = useFormTexts();
  const text = useText('profile');
  const [saveAttributes, saving] = useSaveChangedAttributesMutation();
  const [updateProfile, updating] = useUpdateProfileMutation();
  // The v2 save nests the form under `attributes`; the request-wide character check names paths that way (ADR 0005 "Characters").
  const refusal = useAccountRefusal({ fieldPrefix: 'attributes.' });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [conflictErrors, setConflictErrors] = useState<Record<string, string> | undefined>(undefined);
  const [notice, setNotice] = useState<Notice>(null);
  // The code of the 401 that ended the session during a save, until the person chooses to sign in again.
  const [sessionEndedCode, setSessionEndedCode] = useState<string | null>(null);
  // The session ending during the check is this screen's to handle like its own 401: it keeps the draft.
  const freshProof = useFreshProof({ ownsAuthFailure: true });
  const keptForSignIn = useRef(false);
  // A draft kept for signing in again lives until it is back in this form; leaving the form any other way drops it.
  useEffect(
    () => () => {
      if (!keptForSignIn.current && !/\/edit-profile\/?$/.test(window.location.pathname)) dropProfileDraft();
    },
    [],
  );
  const busy = saving.isLoading || updating.isLoading;

  const formTexts = useMemo(() => ({ ...baseTexts, [CHANGED_ELSEWHERE]: text('edit.changedElsewhere') }), [baseTexts, text]);

  // The form starts once the form, the attributes and the profile are all there, and keeps its own values from then on.
  // What the person changed before their session ended comes back on top of the stored values, unsaved, at
  // the version they had read: their save sends only those fields, and one that another window changed
  // meanwhile is refused as a conflict (ADR 0010) instead of being overwritten.
  if (draft === null && form !== null && record.data !== undefined && profile !== null) {
    const baseline = initialAttributeValues(form.schema, record.data.attributes, profile);
    const kept = readProfileDraft({ siteId, userId: profile.primaryUserIdentifier });
    const fields = new Set(Object.keys(form.schema.properties ?? {}));
    const restored = Object.fromEntries(Object.entries(kept?.changes ?? {}).flatMap(([key, value]) => (fields.has(key) ? [[key, value ?? undefined]] : [])));
    const baseVersion = kept === null ? record.data.version : Math.min(kept.baseVersion, record.data.version);
    setDraft({ baseline, baseVersion, shown: { ...baseline, ...restored }, generation: 0, profileCopyPending: false });
    if (kept !== null) setNotice({ kind: 'success', message: text('edit.restored') });
  }

  const labelOf = (key: string): string => {
    const options = (form?.uiSchema[key] as { 'ui:options'?: { labelKey?: string } } | undefined)?.['ui:options'];
    return textLookup(baseTexts, localeToLanguageTag(locale))(options?.labelKey ?? `label.${key}`);
  };

  // The gateway's per-field refusal shows next to the fields; §8's global alert speaks for an outage; anything else is a notice.
  const refuse = (failure: unknown) => {
    const error = asGatewayError(failure);
    if (error.code === 'VALIDATION_FAILED' || GLOBAL_ERROR_STATUSES.has(error.status)) refusal.refuse(error);
    else setNotice({ kind: 'error', message: text(error.code === 'PROFILE_UPDATE_NOT_ALLOWED' ? 'edit.notAllowed' : 'edit.failed') });
  };

  const submit = async (data: SiteFormData) => {
    if (draft === null) return;
    refusal.clear();
    setConflictErrors(undefined);
    setNotice(null);
    const changed = changedAttributes(draft.baseline, data);
    const hasChanges = Object.keys(changed).length > 0;
    if (!hasChanges && !draft.profileCopyPending) {
      setNotice({ kind: 'success', message: text('edit.nothingChanged') });
      return;
    }
    // ownsAuthFailure: §8 turns a 401 into a reload to sign-in, which would throw away what was typed.
    const saved = hasChanges
      ? await freshProof.run(() => saveAttributes({ siteId, attributes: changed, baseVersion: draft.baseVersion, concierge, ownsAuthFailure: true }))
      : { data: { version: draft.baseVersion } };
    // The person closed "Confirm it's you": nothing was saved, the form keeps what they typed, the hook says so.
    if (saved === null) return;
    if ('error' in saved && asGatewayError(saved.error).status === 401 && profile !== null) {
      // The session ended elsewhere (signed out in another tab, expired). A silent reload would lose the
      // change, so the non-secret fields are kept for this tab, sign-in is asked to come back here, and
      // the person is told, with the form as they left it.
      keepProfileDraft({ siteId, userId: profile.primaryUserIdentifier }, { changes: changed, baseVersion: draft.baseVersion });
      window.sessionStorage.setItem(STORAGE.returnUrl, `${basePath}edit-profile${search}`);
      keptForSignIn.current = true;
      setDraft({ ...draft, shown: data });
      setSessionEndedCode(asGatewayError(saved.error).code);
      return;
    }
    if ('error' in saved) {
      const conflict = attributesConflictOf(saved.error);
      if (conflict === null) {
        refuse(saved.error);
        return;
      }
      // Their values replace ours for the fields they changed; everything else the person typed stays.
      const keys = Object.keys(conflict.fields);
      const theirs = Object.fromEntries(keys.map((key) => [key, conflict.current.attributes[key]]));
      setDraft({
        baseline: { ...draft.baseline, ...theirs },
        baseVersion: conflict.current.version,
        shown: { ...data, ...theirs },
        generation: draft.generation + 1,
        profileCopyPending: draft.profileCopyPending,
      });
      setConflictErrors(Object.fromEntries(keys.map((key) => [key, CHANGED_ELSEWHERE])));
      setNotice({ kind: 'error', message: text('edit.conflict', { fields: keys.map(labelOf).join(', ') }) });
      return;
    }
    const updated = await updateProfile({ siteId, concierge });
    if (updated.error) {
      // The attributes are saved: the form starts from them, and the next save retries only the profile copy.
      setDraft({ ...draft, baseline: data, baseVersion: saved.data.version, shown: data, profileCopyPending: true });
      setNotice({ kind: 'error', message: text('edit.failed') });
      return;
    }
    dropProfileDraft();
    dispatch(notificationShown({ id: 'profile-saved', kind: 'success', message: text('edit.saved'), lifetime: 'next-page' }));
    // SPEC §3 feature events: the app in whose webview the portal runs hears of the saved profile.
    notifyMobileApp('editProfile');
    void navigate(`${basePath}profile${search}`);
  };

  return (
    <section className="profile" aria-busy={busy}>
      <Breadcrumb />
      <RouteHeading route="edit-profile" />
      <p className="profile-panel__intro">{text('edit.intro')}</p>
      {notice && <FormAlert kind={notice.kind} message={notice.message} />}
      {freshProof.view}
      {sessionEndedCode !== null && (
        <div className="profile-session-ended">
          <FormAlert kind="error" message={text('edit.sessionEnded')} />
          <button
            type="button"
            className="button button--primary"
            onClick={() => dispatch(authEvent({ type: 'AUTHENTICATION_FAILED', code: sessionEndedCode }))}
          >
            {text('edit.signInAgain')}
          </button>
        </div>
      )}
      <div className="profile-panel">
        {draft !== null && (
          <AccountForm
            key={draft.generation}
            form={form}
            formTexts={formTexts}
            refusal={{ alertMessage: refusal.alertMessage, serverErrors: refusal.serverErrors ?? conflictErrors }}
            formData={draft.shown}
            onSubmit={(data) => void submit(data)}
            submitText={text('edit.submit')}
            disabled={busy}
          />
        )}
      </div>
      <p className="profile-back">
        <Link to={`${basePath}profile${search}`}>{text('edit.cancel')}</Link>
      </p>
    </section>
  );
}
