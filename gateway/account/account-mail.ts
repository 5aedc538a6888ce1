import type { FastifyRequest } from 'fastify';
import type { OutgoingMessage } from '../mail/mailer';
import { ACTIVATION_TOKEN_TTL_MS } from './activation-tokens';

/**
 * The e-mails of ADR 0009, in plain English for now (subject and text). They carry tokens and
 * links, so they go only to the Mailer, never to a log.
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

export function activationMail(to: string, target: LinkTarget, token: string): OutgoingMessage {
  const hours = ACTIVATION_TOKEN_TTL_MS / 3_600_000;
  return {
    channel: 'email',
    to,
    subject: 'Activate your account',
    text: [
      'Welcome! To activate your account, open this link:',
      '',
      accountLink(target, 'activate', { token }),
      '',
      `The link works once and expires in ${hours} hours. If you did not register, ignore this message.`,
    ].join('\n'),
  };
}

/** To the owner of an address someone tried to register again (ADR 0009: no second account, no enumeration). */
export function registrationAttemptMail(to: string, target: LinkTarget): OutgoingMessage {
  return {
    channel: 'email',
    to,
    subject: 'Someone tried to register with your e-mail address',
    text: [
      'Someone tried to create an account with this e-mail address, which already has one.',
      '',
      `If it was you, sign in: ${accountLink(target, 'login-form')}`,
      `Forgot your password? Reset it: ${accountLink(target, 'recovery')}`,
      '',
      'If it was not you, you can ignore this message: nothing changed in your account.',
    ].join('\n'),
  };
}

export function recoveryCodeMessage(channel: OutgoingMessage['channel'], to: string, code: string, minutes: number): OutgoingMessage {
  return {
    channel,
    to,
    subject: 'Your password reset code',
    text: `Your password reset code is ${code}. It expires in ${minutes} minutes. If you did not ask to reset your password, ignore this message.`,
  };
}
