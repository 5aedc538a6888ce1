import { featureConfigOf, LEVEL_BY_CODE, type LevelCode, type SiteConfig } from '../../schemas/site-config/types';
import { validateField } from '../../schemas/validators';
import type { AuthServices } from '../auth/auth-services';
import type { Database, Queryable } from '../db/database';
import type { Fixtures } from '../fixtures/load-fixtures';
import { payloadErrors } from '../forms/validate-payload';
import { HttpError } from '../http/errors';
import { hashPassword } from '../security/password-hashing';
import { activationMail, registrationAttemptMail, type LinkTarget } from './account-mail';
import { issueActivationToken } from './activation-tokens';
import { CAPTCHA_HEADER } from './captcha-verifier';
import { recordPasswordHash } from './password-history';

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
    throw new HttpError(400, 'CAPTCHA_REQUIRED', `Solve the captcha first (${CAPTCHA_HEADER.toUpperCase()} is missing).`);
  }
  if (!(await services.captchaVerifier.verify(token, ip))) throw new HttpError(400, 'CAPTCHA_INVALID', 'The captcha was not solved; try again.');
}

/**
 * ADR 0009: the registration form's data through the site's own schema (the browser's rules,
 * `payloadErrors` of the forms module), each card through the card-number rule, and the cards
 * the site requires; one 400 VALIDATION_FAILED names every refused field.
 */
export function assertValidRegistration(fixtures: Fixtures, site: SiteConfig, registration: Registration, today: Date): void {
  const fields = payloadErrors(fixtures, { siteId: site.siteId, locale: registration.locale, form: 'registration' }, registration.user, today);
  // Every registration form asks for both; a schema without them cannot make an account.
  for (const name of ['email', 'password'] as const) {
    if (typeof registration.user[name] !== 'string' && fields[name] === undefined) fields[name] = 'required';
  }
  const panLevel = LEVEL_BY_CODE[featureConfigOf(site, 'user_asset_profile').pan as LevelCode];
  if (panLevel === 'Mandatory' && registration.cards.length === 0) fields.cards = 'required';
  const seen = new Set<string>();
  registration.cards.forEach((card, index) => {
    const error = validateField(card.pan, { rule: 'cardNumber', required: true });
    const digits = card.pan.replace(/ /g, '');
    // SPEC §5 "Duplicate of a listed number invalid".
    if (error) fields[`cards.${index}.pan`] = error.key;
    else if (seen.has(digits)) fields[`cards.${index}.pan`] = 'invalid';
    seen.add(digits);
  });
  const names = Object.keys(fields);
  if (names.length > 0) throw new HttpError(400, 'VALIDATION_FAILED', `These fields are not valid: ${names.join(', ')}.`, fields);
}

/**
 * Creates the INACTIVE account and mails its activation link, or, when the address already has an
 * account, mails its owner instead. Either way one argon2 hash is computed and one mail is sent, and
 * the caller answers the same 202 (ADR 0009: no enumeration). The unique e-mail with ON CONFLICT
 * DO NOTHING makes a double submit create one account, whichever request wins.
 */
export async function registerAccount(db: Database, services: AuthServices, registration: Registration, link: Omit<LinkTarget, 'siteId' | 'locale'>): Promise<void> {
  const { user, siteId, locale } = registration;
  const email = String(user.email).trim().toLowerCase();
  await services.limits.countAccountMail(email);
  const passwordHash = await hashPassword(String(user.password));
  const now = services.clock.now();
  const cards = registration.cards.map((card, index) => {
    const digits = card.pan.replace(/ /g, '');
    // Issue 8 maps BIN ranges to product types; until then the type is unknown.
    return { lastFour: digits.slice(-4), fingerprint: services.cardFingerprinter(digits), productType: null, isDefault: index === 0 };
  });

  const activationToken = await db.transaction(async (tx) => {
    const inserted = await tx.query<{ id: string }>(
      `insert into users (email, password_hash, first_name, last_name, dob, title, gender, locale, status, roles, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, 'INACTIVE', $9, $10, $10)
       on conflict (email) do nothing
       returning id`,
      [email, passwordHash, text(user.first_name), text(user.last_name), isoDate(user.dob), text(user.title), text(user.gender), locale, ['ROLE_CARDHOLDER'], now],
    );
    const userId = inserted.rows[0]?.id;
    if (userId === undefined) return null;
    await storeProfile(tx, userId, email, registration, cards, now);
    await recordPasswordHash(tx, userId, passwordHash, now);
    return issueActivationToken(tx, userId, now);
  });

  const target: LinkTarget = { ...link, siteId, locale };
  await services.mailer.send(activationToken === null ? registrationAttemptMail(email, target) : activationMail(email, target, activationToken));
}

async function storeProfile(
  tx: Queryable,
  userId: string,
  email: string,
  registration: Registration,
  cards: { lastFour: string; fingerprint: string; productType: null; isDefault: boolean }[],
  now: Date,
): Promise<void> {
  const attributes = { ...Object.fromEntries(Object.entries(registration.user).filter(([key]) => !NOT_ATTRIBUTES.has(key))), email };
  await tx.query('insert into user_sites (user_id, site_id, attributes, updated_at) values ($1, $2, $3, $4)', [userId, registration.siteId, JSON.stringify(attributes), now]);
  for (const card of cards) {
    await tx.query(
      `insert into assets (user_id, site_id, last_four, product_type, pan_fingerprint, is_default, created_at)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [userId, registration.siteId, card.lastFour, card.productType, card.fingerprint, card.isDefault, now],
    );
  }
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function isoDate(value: unknown): string | null {
  return typeof value === 'string' && ISO_DATE.test(value) ? value : null;
}
