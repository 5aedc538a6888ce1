import type { PasscodeChannel } from '../../schemas/site-config/credential-offers';
import { featureConfigOf, type SiteConfig } from '../../schemas/site-config/types';
import type { Queryable } from '../db/database';
import type { Fixtures } from '../site-files/load-fixtures';

/** SPEC §3 `site_auth_profile.login_otp`: the passcode a site asks after the password. */
export type LoginOtpRule = 'none' | 'email' | 'sms' | 'choice';

/** What a password sign-in must pass beyond the password (ADR 0008, ADR 0017). */
export interface SignInPolicy {
  loginOtp: LoginOtpRule;
  /**
   * ADR 0009 "Breached passwords", ADR 0012: a listed password must prove the mailbox when nothing else of the
   * sign-in proves the person, then sends them to compromised-credentials.
   */
  compromisedPasswordCheck: boolean;
}

const LOGIN_OTP_RULES: readonly string[] = ['none', 'email', 'sms', 'choice'];
/** Which rule a person with profiles on several sites gets when the site signed in on asks none. */
const STRONGER_FIRST: readonly LoginOtpRule[] = ['sms', 'email', 'choice'];

function loginOtpOf(site: SiteConfig): LoginOtpRule {
  const rule = featureConfigOf(site, 'site_auth_profile').login_otp ?? 'none';
  return LOGIN_OTP_RULES.includes(rule) ? (rule as LoginOtpRule) : 'none';
}

/** ADR 0009 "Breached passwords": `vba.enabled` is the flow's switch, `compromised_password_check` its sign-in check; absent is on. */
function keepsBreachedPasswordFlow(site: SiteConfig): boolean {
  const vba = featureConfigOf(site, 'vba');
  return vba.enabled !== 'false' && vba.compromised_password_check !== 'false';
}

/** SPEC §3 `auth_mechanism` SSO: the site's people sign in at its identity provider, never with a password here. */
export function isSsoOnlySite(site: SiteConfig): boolean {
  return featureConfigOf(site, 'site_auth_profile').auth_mechanism === 'SSO';
}

/**
 * ADR 0017 "One identity, the strongest rule": a person signs in on `siteId` with the rules of that
 * site, made stronger by every site where they already have a profile. A site that asks a passcode
 * keeps its own kind; a site that asks none gets the strongest kind another of the person's sites
 * asks. The breached-password flow holds when any of those sites keeps it (vba.enabled and
 * vba.compromised_password_check both other than "false"). Nothing of the
 * request but the site signed in on (whose own rule always counts) goes in, so no parameter weakens it.
 */
export async function signInPolicyFor(db: Queryable, fixtures: Fixtures, userId: string, siteId: string): Promise<SignInPolicy> {
  const profiles = await db.query<{ site_id: string }>('select site_id from user_sites where user_id = $1', [userId]);
  const siteOf = (id: string): SiteConfig => fixtures.sites.get(id)?.config ?? fixtures.defaultSite.config;
  const own = siteOf(siteId);
  const others = profiles.rows.map((row) => siteOf(row.site_id));
  const ownRule = loginOtpOf(own);
  const otherRules = new Set(others.map(loginOtpOf));
  return {
    loginOtp: ownRule !== 'none' ? ownRule : (STRONGER_FIRST.find((rule) => otherRules.has(rule)) ?? 'none'),
    compromisedPasswordCheck: [own, ...others].some(keepsBreachedPasswordFlow),
  };
}

/**
 * The channels a passcode of the sign-in rule `rule` may go by, for an account with or without a phone
 * (docs/decisions/0025-fresh-proof.md "Channels come from the site"): an `email` site e-mails, an `sms`
 * site texts (e-mails an account without a phone, as ADR 0008 had it), a `choice` site lets the person
 * pick, and a site that asks none e-mails (the breached-password and confirm-it's-you codes). Never from
 * the request: `send-code` refuses any other channel, and a code is accepted only as the channel it went by.
 */
export function passcodeChannelsOf(rule: LoginOtpRule, hasPhone: boolean): PasscodeChannel[] {
  if (!hasPhone) return ['email'];
  if (rule === 'sms') return ['sms'];
  if (rule === 'choice') return ['email', 'sms'];
  return ['email'];
}
