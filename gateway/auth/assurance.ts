import type { Database, Queryable } from '../db/database';
import type { Fixtures } from '../site-files/load-fixtures';
import { HttpError } from '../http/errors';
import type { MessageChannel } from '../mail/mailer';
import { destinationsOf } from './passcode-delivery';
import type { SessionUser } from './session-store';
import { isSsoOnlySite, passcodeChannelsOf, signInPolicyFor } from './sign-in-policy';

/**
 * Assurance is data (docs/decisions/0025-fresh-proof.md): a session records each proof it was given, with
 * its time and site, and this module alone answers "is this session's proof enough to let it own the
 * account?". Anchors: Ory Kratos's `privileged_session_max_age`, NIST SP 800-63B §4 re-authentication,
 * OIDC `max_age` / `auth_time`.
 */

/** What a session was shown: the password, a passcode (and its channel), an authenticator or backup code, an SSO sign-in. */
export type ProofKind = 'password' | 'passcode' | 'totp' | 'backup-code' | 'sso';

export interface GivenProof {
  kind: ProofKind;
  /** The channel of a passcode; absent for every other kind. */
  channel?: MessageChannel;
}

/** How old the proof behind an owning action may be (ADR 0025): 10 minutes, GitHub's sudo mode and Kratos's default alike. */
export const FRESH_PROOF_MAX_AGE_MS = 10 * 60_000;

/** Records the proofs a session was just given on `siteId` (its own site: a session belongs to one). */
export async function recordProofs(db: Queryable, sessionId: string, siteId: string, proofs: readonly GivenProof[], now: Date): Promise<void> {
  for (const proof of proofs) {
    await db.query('insert into session_proofs (session_id, kind, channel, site_id, proved_at) values ($1, $2, $3, $4, $5)', [
      sessionId,
      proof.kind,
      proof.channel ?? null,
      siteId,
      now,
    ]);
  }
}

/**
 * What proves the holder of an account on the session's site (ADR 0025 "the site's strongest factor"),
 * and how the app asks for it (the 403's `proof` and `channels`):
 * - an enrolled authenticator: its code, or a backup code (it never gives way to a passcode);
 * - else a site that asks a passcode at sign-in: a passcode by one of the site's channels;
 * - else (a password-only or SSO site): the password or the SSO sign-in, or an e-mailed passcode;
 * and below an authenticator, an authenticator or backup code the session was given counts too.
 */
export interface ProofDemand {
  proof: 'totp' | 'passcode';
  /** The channels a confirm-it's-you passcode may go by (`send-code` purpose otp-check); empty for `totp`. */
  channels: MessageChannel[];
  /** The kinds of proof, any one of which, given within FRESH_PROOF_MAX_AGE_MS on this site, is enough. */
  accepted: readonly ProofKind[];
}

const STRONGER_THAN_PASSCODE: readonly ProofKind[] = ['totp', 'backup-code'];

export async function proofDemandOf(db: Database, fixtures: Fixtures, user: Pick<SessionUser, 'userId' | 'siteId' | 'profile'>): Promise<ProofDemand> {
  if (user.profile.mfaEnrollmentStatus === 'ENROLLED') return { proof: 'totp', channels: [], accepted: ['totp', 'backup-code'] };
  const policy = await signInPolicyFor(db, fixtures, user.userId, user.siteId);
  const destinations = await destinationsOf(db, user.userId, user.siteId);
  const channels = passcodeChannelsOf(policy.loginOtp, destinations?.phone != null);
  // An authenticator or backup code given in the session (before the authenticator was removed) is stronger still.
  if (policy.loginOtp !== 'none') return { proof: 'passcode', channels, accepted: ['passcode', ...STRONGER_THAN_PASSCODE] };
  const site = fixtures.sites.get(user.siteId)?.config ?? fixtures.defaultSite.config;
  return { proof: 'passcode', channels, accepted: [isSsoOnlySite(site) ? 'sso' : 'password', 'passcode', ...STRONGER_THAN_PASSCODE] };
}

/**
 * Throws unless the session was given, on its own site within the last 10 minutes, a proof its holder's
 * demand accepts: 403 FRESH_PROOF_REQUIRED `{ proof, channels }`, which the app turns into its
 * "confirm it's you" step and then sends the same call again. An agent's session never holds the
 * holder's proof: 403 CONCIERGE_NOT_ALLOWED (ADR 0014: the holder makes these changes themselves).
 */
export async function assertFreshProof(db: Database, fixtures: Fixtures, user: SessionUser, now: Date): Promise<void> {
  const refusal = await freshProofRefusal(db, fixtures, user, now);
  if (refusal !== null) throw refusal;
}

/** `assertFreshProof`'s answer without throwing it: null when the session may go on. */
export async function freshProofRefusal(db: Database, fixtures: Fixtures, user: SessionUser, now: Date): Promise<HttpError | null> {
  if (user.isAgent) {
    return new HttpError(403, 'CONCIERGE_NOT_ALLOWED', 'A support agent cannot change contact points or security settings; the card holder does that.');
  }
  const demand = await proofDemandOf(db, fixtures, user);
  const fresh = await db.query('select 1 from session_proofs where session_id = $1 and site_id = $2 and kind = any($3::text[]) and proved_at > $4 limit 1', [
    user.sessionId,
    user.siteId,
    demand.accepted,
    new Date(now.getTime() - FRESH_PROOF_MAX_AGE_MS),
  ]);
  if (fresh.rows.length > 0) return null;
  return new HttpError(403, 'FRESH_PROOF_REQUIRED', "Confirm it's you to make this change.", undefined, {
    extras: { proof: demand.proof, channels: demand.channels },
  });
}

/** The site attributes that are contact points (the phone passcodes are texted to): a change of one owns the account. */
export const CONTACT_POINT_ATTRIBUTES: readonly string[] = ['phone', 'email'];

/**
 * A save changing `changedKeys`: one that changes a contact point needs the card holder's fresh proof, and
 * an agent never makes it (403 CONCIERGE_NOT_ALLOWED naming the field; ADR 0014, ADR 0025). At most an agent
 * tells the holder to change it themselves.
 */
export async function assertContactPointsMayChange(
  db: Database,
  fixtures: Fixtures,
  user: SessionUser,
  changedKeys: readonly string[],
  now: Date,
): Promise<void> {
  const contactPoints = changedKeys.filter((key) => CONTACT_POINT_ATTRIBUTES.includes(key));
  if (contactPoints.length === 0) return;
  if (user.isAgent) {
    throw new HttpError(
      403,
      'CONCIERGE_NOT_ALLOWED',
      'A support agent cannot change where the card holder gets passcodes; the card holder changes it themselves.',
      Object.fromEntries(contactPoints.map((key) => [key, 'holderOnly'])),
    );
  }
  await assertFreshProof(db, fixtures, user, now);
}
