import { STORAGE } from '../app/storage-names';

/**
 * Fields a kept draft never holds: passwords, national ids and anything of a card number (the nine-digit
 * BIN is its first digits), passcodes, codes, tokens and authenticator secrets: session storage is readable by any script of the page and survives
 * until the tab closes, so a draft there carries nothing a person on the same browser could misuse (the
 * threat model of ADR 0017 keeps these values in memory or on the gateway only).
 */
const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'password',
  'confirm_password',
  'currentPassword',
  'nationalId',
  'ninedigitbin',
  'bin',
  'pan',
  'cvv',
  'cards',
  'otp',
  'passcode',
  'checkedPasscode',
  'code',
  'backupCode',
  'token',
  'vba_token',
  'vbaToken',
  'secret',
]);

/** The form data less every secret field (top level: the forms have no nested secret). */
export function nonSecretFields(data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => !SECRET_FIELDS.has(key)));
}

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readJson(storage: DraftStorage, key: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(key) ?? 'null');
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * SPEC §2 registration → add-pan: the registration form lives in memory (it holds the password), so a reload
 * on add-pan used to lose all of it. Its non-secret fields are kept here, for this tab only, until the
 * registration is sent or the person leaves the registration steps.
 */
export function keepRegistrationDraft(siteId: string, data: Readonly<Record<string, unknown>>, storage: DraftStorage = window.sessionStorage): void {
  storage.setItem(STORAGE.registrationDraft, JSON.stringify({ siteId, data: nonSecretFields(data) }));
}

/** The tab's session storage; none while the server renders a page (ADR 0024), which then has no draft. */
function tabStorage(): DraftStorage | null {
  return typeof window === 'undefined' ? null : window.sessionStorage;
}

/** The kept registration fields of this site, or null. */
export function readRegistrationDraft(siteId: string, storage: DraftStorage | null = tabStorage()): Record<string, unknown> | null {
  if (storage === null) return null;
  const kept = readJson(storage, STORAGE.registrationDraft);
  return kept !== null && kept.siteId === siteId && isRecord(kept.data) ? nonSecretFields(kept.data) : null;
}

export function dropRegistrationDraft(storage: DraftStorage = window.sessionStorage): void {
  storage.removeItem(STORAGE.registrationDraft);
}

/** Who a profile draft belongs to: only they get it back (another person may sign in on the same tab). */
export interface DraftOwner {
  siteId: string;
  userId: string;
}

/**
 * What an edit-profile draft holds: only the fields the person changed (ADR 0010 "Saving only what changed")
 * and the version the form was read at, so the save after signing in again is refused as a conflict when
 * another window changed one of those fields meanwhile, and never writes back a field they did not touch.
 */
export interface ProfileDraft {
  changes: Record<string, unknown>;
  baseVersion: number;
}

/**
 * SPEC §2 edit-profile: what was typed when the save found the session ended (signed out in another tab,
 * expired), kept for this tab until the same person saves it or leaves the form.
 */
export function keepProfileDraft(owner: DraftOwner, draft: ProfileDraft, storage: DraftStorage = window.sessionStorage): void {
  storage.setItem(STORAGE.profileDraft, JSON.stringify({ ...owner, changes: nonSecretFields(draft.changes), baseVersion: draft.baseVersion }));
}

/** The kept draft when it belongs to `owner`; anyone else's (or one that is not a draft) is dropped unseen. */
export function readProfileDraft(owner: DraftOwner, storage: DraftStorage = window.sessionStorage): ProfileDraft | null {
  const kept = readJson(storage, STORAGE.profileDraft);
  if (kept === null) return null;
  const { changes, baseVersion } = kept;
  if (kept.siteId !== owner.siteId || kept.userId !== owner.userId || !isRecord(changes) || typeof baseVersion !== 'number' || !Number.isInteger(baseVersion)) {
    storage.removeItem(STORAGE.profileDraft);
    return null;
  }
  return { changes: nonSecretFields(changes), baseVersion };
}

export function dropProfileDraft(storage: DraftStorage = window.sessionStorage): void {
  storage.removeItem(STORAGE.profileDraft);
}

/** The multi-step flows whose step is kept across a reload and Back/Forward (ADR 0019 "Flow steps"). */
export type KeptFlow = 'registration' | 'recovery' | 'sign-in' | 'activation-resend' | 'mfa-setup' | 'confirm-its-you';

/**
 * Where a multi-step flow stands on this site (the e-mail a recovery code was asked for, where a passcode went),
 * for this tab only, less every secret field: a reload or Back/Forward finds the same step, and the code already
 * sent still works (ADR 0008 "Codes asked for again"). One entry per flow, under one storage key.
 */
export function keepFlowStep(flow: KeptFlow, siteId: string, step: Readonly<Record<string, unknown>>, storage: DraftStorage = window.sessionStorage): void {
  const kept = readJson(storage, STORAGE.flowSteps) ?? {};
  storage.setItem(STORAGE.flowSteps, JSON.stringify({ ...kept, [flow]: { siteId, step: nonSecretFields(step) } }));
}

/** The kept step of `flow` on this site, less any secret a hand-written entry might hold; null when none. */
export function readFlowStep(flow: KeptFlow, siteId: string, storage: DraftStorage | null = tabStorage()): Record<string, unknown> | null {
  if (storage === null) return null;
  const entry = readJson(storage, STORAGE.flowSteps)?.[flow];
  return isRecord(entry) && entry.siteId === siteId && isRecord(entry.step) ? nonSecretFields(entry.step) : null;
}

/** The flow ended (the password was reset, the person signed in): its step is not kept a moment longer. */
export function dropFlowStep(flow: KeptFlow, storage: DraftStorage | null = tabStorage()): void {
  if (storage === null) return;
  const kept = readJson(storage, STORAGE.flowSteps);
  if (kept === null || !(flow in kept)) return;
  const rest = Object.fromEntries(Object.entries(kept).filter(([name]) => name !== flow));
  if (Object.keys(rest).length === 0) storage.removeItem(STORAGE.flowSteps);
  else storage.setItem(STORAGE.flowSteps, JSON.stringify(rest));
}
