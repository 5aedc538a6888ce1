import { normaliseMarketingOptIns } from '../../schemas/entities/marketing-opt-ins';
import { featureConfigOf, levelOfCode, type SiteConfig } from '../../schemas/site-config/types';
import { isCardActive, lookupBinRange } from '../../schemas/cards/bin-ranges';
import { cardLimitOf } from '../../schemas/cards/card-rules';
import { validateField } from '../../schemas/validators';
import type { AuthServices } from '../auth/auth-services';
import { passcodePhoneOf } from '../auth/passcode-delivery';
import { describeCard, insertNewAccountCards, type DescribedCard } from '../cards/card-enrolment';
import type { Database, Queryable } from '../db/database';
import type { Fixtures } from '../site-files/load-fixtures';
import { payloadErrors } from '../forms/validate-payload';
import { HttpError } from '../http/errors';
import type { JobQueue } from '../jobs/job-queue';
import { hashPassword } from '../security/password-hashing';
import { recipientByEmail } from '../mail/recipient';
import { activationMail, bankNameOf, registrationAttemptMail, type LinkTarget } from './account-mail';
import { carryActivationTokens, issueActivationToken, liveActivationTokens } from './activation-tokens';
import { CAPTCHA_HEADER } from './captcha-verifier';
import { recordPasswordHash } from './password-history';
import { dropUnprovedAccount, lockUnprovedAccount } from './unproved-accounts';

/** ADR 0009 registration body, after the route's shape check. */
export interface Registration {
  siteId: string;
  locale: string;
  user: Record<string, unknown>;
  cards: { pan: string }[];
}

/** Form fields that are never stored as attributes: the password lives hashed, `pp` is only the consent tick. */
const NOT_ATTRIBUTES = new Set(['password', 'confirm_password', 'pp']);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * SPEC §7 captcha, ADR 0009: on a site with `captcha_required` "true" the token must be there
 * (400 CAPTCHA_REQUIRED) and pass the verifier (400 CAPTCHA_INVALID).
 */
export async function assertCaptcha(site: SiteConfig, services: AuthServices, token: string | undefined, ip: string): Promise<void> {
  if (featureConfigOf(site, 'user_enrollment').captcha_required !== 'true') return;
  if (token === undefined || token.trim() === '') {
    throw new HttpError(400, 'CAPTCHA_REQUIRED', `Solve the captcha first (${CAPTCHA_HEADER.toUpperCase()} is missing).`, { [CAPTCHA_HEADER]: 'required' });
  }
  if (!(await services.captchaVerifier.verify(token, ip)))
    throw new HttpError(400, 'CAPTCHA_INVALID', 'The captcha was not solved; try again.', { [CAPTCHA_HEADER]: 'invalid' });
}

/**
 * ADR 0009: the registration form's data through the site's own schema (the browser's rules,
 * `payloadErrors` of the forms module), each card through the card-number rule and, as at every
 * enrolment (ADR 0011), the BIN ranges' eligibility and the site's card limit, and the cards the
 * site requires; one 400 VALIDATION_FAILED names every refused field.
 */
export function assertValidRegistration(fixtures: Fixtures, site: SiteConfig, registration: Registration, today: Date): void {
  const fields = payloadErrors(fixtures, { siteId: site.siteId, locale: registration.locale, form: 'registration' }, registration.user, today);
  // Every registration form asks for both; a schema without them cannot make an account.
  for (const name of ['email', 'password'] as const) {
    if (typeof registration.user[name] !== 'string' && fields[name] === undefined) fields[name] = 'required';
  }
  const panLevel = levelOfCode(featureConfigOf(site, 'user_asset_profile').pan);
  if (panLevel === 'Mandatory' && registration.cards.length === 0) fields.cards = 'required';
  const seen = new Set<string>();
  const checkActive = featureConfigOf(site, 'pan_capture').check_card_active_status === 'true';
  registration.cards.forEach((card, index) => {
    const error = validateField(card.pan, { rule: 'cardNumber', required: true });
    const digits = card.pan.replace(/ /g, '');
    // SPEC §5 "Duplicate of a listed number invalid".
    if (error) fields[`cards.${index}.pan`] = error.key;
    else if (seen.has(digits)) fields[`cards.${index}.pan`] = 'invalid';
    // SPEC §5 "Server eligibility must return eligible true".
    else if (!lookupBinRange(fixtures.binRanges, digits, site.siteId).eligible) fields[`cards.${index}.pan`] = 'notEligible';
    // ADR 0001 check_card_active_status: as the validation call and every enrolment refuse it (CARD_NOT_ACTIVE).
    else if (checkActive && !isCardActive(fixtures.binRanges, digits, site.siteId)) fields[`cards.${index}.pan`] = 'notActive';
    seen.add(digits);
  });
  if (registration.cards.length > cardLimitOf(featureConfigOf(site, 'pan_capture').limit)) fields.cards = 'limit';
  const names = Object.keys(fields);
  if (names.length > 0) throw new HttpError(400, 'VALIDATION_FAILED', `These fields are not valid: ${names.join(', ')}.`, fields);
}

/** ADR 0012 `registration` job payload: the checked form, the password already hashed, the cards already reduced. */
export interface RegistrationJob {
  siteId: string;
  locale: string;
  email: string;
  passwordHash: string;
  user: Record<string, unknown>;
  /** ADR 0011: never the number, only what identifies and describes it. */
  cards: DescribedCard[];
  origin: string;
}

/**
 * Registration's part while the caller waits (ADR 0009, 0012): count the address, hash the
 * password, reduce the cards to what is stored of them (ADR 0011), store the job. A new address and one
 * that already has an account cost the same here; the job tells them apart.
 */
export async function acceptRegistration(
  services: AuthServices,
  jobs: JobQueue,
  registration: Registration,
  link: Omit<LinkTarget, 'siteId' | 'locale'>,
): Promise<void> {
  const { user, siteId, locale } = registration;
  const email = String(user.email).trim().toLowerCase();
  await services.limits.countAccountMail(email);
  const passwordHash = await hashPassword(String(user.password));
  // ADR 0011: product type and eligibility from the BIN ranges, as at every enrolment.
  const cards = registration.cards.map((card) => describeCard(card.pan.replace(/ /g, ''), siteId, services.binRanges, services.cardFingerprinter));
  const attributes = Object.fromEntries(Object.entries(user).filter(([key]) => !NOT_ATTRIBUTES.has(key)));
  const job: RegistrationJob = { siteId, locale, email, passwordHash, user: attributes, cards, origin: link.origin };
  await jobs.enqueue('registration', { ...job });
}

/**
 * The `registration` job: creates the INACTIVE account and mails its activation link, or, when the
 * address already has an activated account, mails its owner instead (ADR 0009: no enumeration). An
 * address whose account was never activated is no one's yet (ADR 0009 "Activation"): the new registration
 * replaces that account whole (`unproved-accounts.ts`), so a first registrant keeps no claim on an address
 * they never proved. The links already mailed to the address keep working, for the new account: a link
 * proves the mailbox, and activation also asks the new registration's password, so a double submit
 * mails links that all work. The unique e-mail decides a race between two jobs: the one that finds the
 * other's row starts again and replaces it. A retried job (the mail failed after the account was made)
 * replaces its own account and mails a fresh link, so a failed send never turns into a "someone tried" mail.
 */
export async function createRegisteredAccount(db: Database, fixtures: Fixtures, services: AuthServices, job: RegistrationJob): Promise<void> {
  const { siteId, locale, email } = job;
  let activationToken: string | null | undefined;
  for (let round = 0; round < MAX_REGISTRATION_ROUNDS && activationToken === undefined; round++) {
    activationToken = await db.transaction((tx) => replaceUnprovedOrInsert(tx, services, job));
  }
  // Every round lost its race: the job queue tries again later (ADR 0012).
  if (activationToken === undefined) throw new Error('The registration kept meeting a concurrent one for the same address');

  const target: LinkTarget = { origin: job.origin, siteId, locale };
  // The owner's own language: for a new account the locale it registered in, for an existing one its stored locale.
  const texts = services.mailTexts((await recipientByEmail(db, email, siteId))?.locale ?? locale);
  const site = bankNameOf(fixtures, siteId);
  await services.mailer.send(
    activationToken === null ? registrationAttemptMail(texts, email, target, site) : activationMail(texts, email, target, site, activationToken),
  );
}

/** Rounds of `replaceUnprovedOrInsert` one job tries before it leaves the race to the job queue's retry. */
const MAX_REGISTRATION_ROUNDS = 3;

/**
 * One transaction of the job: the new INACTIVE account and its activation token, null when the address
 * has an activated account, undefined when another registration of the address committed meanwhile.
 */
async function replaceUnprovedOrInsert(tx: Queryable, services: AuthServices, job: RegistrationJob): Promise<string | null | undefined> {
  const { user, locale, email } = job;
  const now = services.clock.now();
  const unproved = await lockUnprovedAccount(tx, { email });
  const carried = unproved === null ? [] : await liveActivationTokens(tx, unproved.id, now);
  if (unproved !== null) await dropUnprovedAccount(tx, unproved);
  const inserted = await tx.query<{ id: string }>(
    `insert into users (email, password_hash, first_name, last_name, dob, title, gender, locale, status, roles, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, 'INACTIVE', $9, $10, $10)
     on conflict (email) do nothing
     returning id`,
    [
      email,
      job.passwordHash,
      text(user.first_name),
      text(user.last_name),
      isoDate(user.dob),
      text(user.title),
      text(user.gender),
      locale,
      ['ROLE_CARDHOLDER'],
      now,
    ],
  );
  const userId = inserted.rows[0]?.id;
  if (userId === undefined) return (await lockUnprovedAccount(tx, { email })) === null ? null : undefined;
  await storeProfile(tx, userId, email, job, now);
  await recordPasswordHash(tx, userId, job.passwordHash, now);
  const token = await issueActivationToken(tx, userId, now);
  await carryActivationTokens(tx, userId, carried);
  return token;
}

async function storeProfile(tx: Queryable, userId: string, email: string, job: RegistrationJob, now: Date): Promise<void> {
  // SPEC §3 opt-ins are stored in one shape: the form hands over its checkbox list `{ email: true }`, the
  // profile reads `{ email: { optin: true } }`. Normalised here, where the row is written, so a job queued
  // before this rule stores the right shape too.
  const { marketing_opt_ins: optIns, ...rest } = job.user;
  const attributes = { ...rest, ...(optIns === undefined ? {} : { marketing_opt_ins: normaliseMarketingOptIns(optIns) }), email };
  // The phone given at registration is the account's first: passcodes go to it (ADR 0025 "A new phone is proved
  // before it counts" is about a phone changed later, when the account already had one to ask).
  await tx.query('insert into user_sites (user_id, site_id, attributes, updated_at, passcode_phone) values ($1, $2, $3, $4, $5)', [
    userId,
    job.siteId,
    JSON.stringify(attributes),
    now,
    passcodePhoneOf(attributes),
  ]);
  // The user was created in this transaction, so no other call can add cards meanwhile; the first becomes the default.
  // ADR 0011: a number another account holds on the site is kept, not enrolled; the answer was sent long ago and told nothing.
  await insertNewAccountCards(tx, userId, job.siteId, job.cards, now);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function isoDate(value: unknown): string | null {
  return typeof value === 'string' && ISO_DATE.test(value) ? value : null;
}
