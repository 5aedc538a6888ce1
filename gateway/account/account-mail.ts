import type { FastifyRequest } from 'fastify';
import type { OutgoingMessage } from '../mail/mailer';
import type { Fixtures } from '../site-files/load-fixtures';
import type { LocalisedTexts } from '../mail/mail-texts';
import { ACTIVATION_TOKEN_TTL_MS } from './activation-tokens';

/**
 * The e-mails of ADR 0009 and the account notices, written from the content group `mail` in the
 * reader's locale (gateway/mail/mail-texts.ts). They carry tokens and links, so they go only to
 * the Mailer, never to a log.
 */

/** Where a link in a mail points: the site and locale the person used, on the public origin. */
export interface LinkTarget {
  origin: string;
  siteId: string;
  locale: string;
}

/**
 * PUBLIC_URL when set; otherwise the origin the request came to (development). Production sets
 * PUBLIC_URL, so a forged Host header can never point a mailed link elsewhere.
 */
export function publicOriginOf(request: FastifyRequest, publicUrl: string | null): string {
  return (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
}

/** `/{issuer}/{locale}/account/{route}`: the site id is the issuer segment (SPEC §2 routes). */
export function accountLink(target: LinkTarget, route: string, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString();
  return `${target.origin}/${encodeURIComponent(target.siteId)}/${target.locale}/account/${route}${search ? `?${search}` : ''}`;
}

/** The first mail of a new account, the welcome: it names the bank (`site`, the site's `name`) the account was opened with. */
export function activationMail(texts: LocalisedTexts, to: string, target: LinkTarget, site: string, token: string): OutgoingMessage {
  const hours = ACTIVATION_TOKEN_TTL_MS / 3_600_000;
  return {
    channel: 'email',
    to,
    subject: texts.text('activation.subject', { site }),
    text: texts.text('activation.text', { site, link: accountLink(target, 'activate', { token }), hours }),
  };
}

/** To the owner of an address someone tried to register again (ADR 0009: no second account, no enumeration), naming the bank. */
export function registrationAttemptMail(texts: LocalisedTexts, to: string, target: LinkTarget, site: string): OutgoingMessage {
  return {
    channel: 'email',
    to,
    subject: texts.text('registrationAttempt.subject'),
    text: texts.text('registrationAttempt.text', { site, signInLink: accountLink(target, 'login-form'), recoveryLink: accountLink(target, 'recovery') }),
  };
}

/** A site's name as its mails name the bank (SPEC §3 site `name`); the default site's for an unknown id. */
export function bankNameOf(fixtures: Fixtures, siteId: string): string {
  return (fixtures.sites.get(siteId) ?? fixtures.defaultSite).config.name;
}

export function recoveryCodeMessage(texts: LocalisedTexts, channel: OutgoingMessage['channel'], to: string, code: string, minutes: number): OutgoingMessage {
  return { channel, to, subject: texts.text('recoveryCode.subject'), text: texts.text('recoveryCode.text', { code, minutes }) };
}

/** ADR 0008 sign-in and otp-check passcodes. */
export function passcodeMessage(texts: LocalisedTexts, channel: OutgoingMessage['channel'], to: string, code: string, minutes: number): OutgoingMessage {
  return { channel, to, subject: texts.text('passcode.subject'), text: texts.text('passcode.text', { code, minutes }) };
}

/**
 * To an address someone added as their EMAIL alias (docs/decisions/0022-declared-calls.md "Proving an EMAIL
 * alias"): the code that proves it, for the mailbox's owner only.
 */
export function aliasProofMail(texts: LocalisedTexts, to: string, site: string, code: string, minutes: number): OutgoingMessage {
  return { channel: 'email', to, subject: texts.text('aliasProof.subject'), text: texts.text('aliasProof.text', { site, code, minutes }) };
}

/**
 * To a new phone of a site's profile (docs/decisions/0025-fresh-proof.md "A new phone is proved before it
 * counts"): the code that makes it the phone passcodes go to, naming the bank.
 */
export function phoneProofText(texts: LocalisedTexts, to: string, site: string, code: string, minutes: number): OutgoingMessage {
  return { channel: 'sms', to, subject: texts.text('phoneProof.subject'), text: texts.text('phoneProof.text', { site, code, minutes }) };
}

/** To an address that is already someone's, instead of a code (ADR 0022: the caller's answer is the same). */
export function aliasAttemptMail(texts: LocalisedTexts, to: string, site: string): OutgoingMessage {
  return { channel: 'email', to, subject: texts.text('aliasAttempt.subject'), text: texts.text('aliasAttempt.text', { site }) };
}
