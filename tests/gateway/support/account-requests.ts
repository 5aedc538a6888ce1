import type { LightMyRequestResponse } from 'fastify';
import type { MemoryOutbox } from '../../../gateway/mail/memory-outbox';
import type { TestBrowser } from './test-browser';

/**
 * ADR 0009 payloads for the account tests: a registration that firstbank's own form accepts
 * (SPEC §5 rules), the calls with the captcha header, and the links the mails carry.
 */
export const ANA_PASSWORD = 'Rewards#2025x';

export function firstbankUser(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'mr',
    first_name: 'Ana',
    last_name: 'Silva',
    email: 'ana@example.com',
    password: ANA_PASSWORD,
    confirm_password: ANA_PASSWORD,
    dob: '1990-04-12',
    phone: '(202) 555-0143',
    nationalId: '536220871',
    ninedigitbin: '411111111',
    marketing_opt_ins: { email: true },
    pp: true,
    ...overrides,
  };
}

/** A Luhn-valid card of SPEC §5 (16 digits starting with 4). */
export const VISA_TEST_PAN = '4111 1111 1111 1111';

export function registrationBody(
  user: Record<string, unknown> = firstbankUser(),
  cards: { pan: string }[] = [{ pan: VISA_TEST_PAN }],
): Record<string, unknown> {
  return { siteId: 'firstbank', locale: 'en_us', user, cards };
}

export function register(browser: TestBrowser, body: unknown, options: { captcha?: string | null; url?: string } = {}): Promise<LightMyRequestResponse> {
  const captcha = options.captcha === undefined ? 'test-captcha-token' : options.captcha;
  return browser.call({
    method: 'POST',
    url: options.url ?? 'user-mgmt/user/registration',
    json: body,
    headers: captcha === null ? {} : { 'x-hcaptcha-token': captcha },
  });
}

/** The token of the newest activation link mailed to `to`. */
export async function activationTokenFor(outbox: MemoryOutbox, to: string): Promise<string> {
  const [message] = await outbox.messagesTo(to);
  const token = /\/account\/activate\?token=([A-Za-z0-9_-]+)/.exec(message?.text ?? '')?.[1];
  if (token === undefined) throw new Error(`no activation link was sent to ${to}`);
  return token;
}
