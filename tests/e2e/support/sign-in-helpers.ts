import { createHmac } from 'node:crypto';
import type { APIRequestContext, BrowserContext } from 'playwright-core';

/**
 * Helpers for the sign-in browser tests against ADR 0008's development and test
 * hooks: the development outbox (`GET /api/dev-outbox/messages?to=`) and the test clock
 * (`POST /api/test-support/clock { advanceSeconds }`, GATEWAY_TEST_MODE only).
 */
interface OutboxMessage {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

export async function outboxMessages(request: APIRequestContext, baseUrl: string, to: string): Promise<OutboxMessage[]> {
  const response = await request.get(`${baseUrl}/api/dev-outbox/messages?${new URLSearchParams({ to }).toString()}`);
  if (!response.ok()) throw new Error(`dev outbox for ${to}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { messages: OutboxMessage[] }).messages;
}

/** The 6-digit passcode of the newest message to `to` that is not among `seenIds`, waiting for it to arrive. */
export async function newPasscode(request: APIRequestContext, baseUrl: string, to: string, seenIds: ReadonlySet<string> = new Set()): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    // The newest fresh message that carries a code: an account notice (password changed, …) carries none.
    const fresh = (await outboxMessages(request, baseUrl, to)).filter((message) => !seenIds.has(message.id));
    const code = fresh.map((message) => message.text.match(/\b(\d{6})\b/)?.[1]).find((found) => found !== undefined);
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no new passcode for ${to} in the dev outbox`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function outboxIds(request: APIRequestContext, baseUrl: string, to: string): Promise<Set<string>> {
  return new Set((await outboxMessages(request, baseUrl, to)).map((message) => message.id));
}

/** Moves the gateway's clock forward (ADR 0008 test clock): expiry and lockout tests never sleep. */
export async function advanceGatewayClock(context: BrowserContext, baseUrl: string, advanceSeconds: number): Promise<void> {
  const xsrf = (await context.cookies(baseUrl)).find((cookie) => cookie.name === 'XSRF-TOKEN')?.value;
  const response = await context.request.post(`${baseUrl}/api/test-support/clock`, { data: { advanceSeconds }, headers: xsrf ? { 'X-XSRF-TOKEN': xsrf } : {} });
  if (!response.ok()) throw new Error(`test clock: ${response.status()} ${await response.text()}`);
}

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/[\s=]/g, '').toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let index = 0; index + 8 <= bits.length; index += 8) bytes.push(Number.parseInt(bits.slice(index, index + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238 TOTP (HMAC-SHA1, 30 s steps, 6 digits), computed independently of the gateway's code. */
export function totpCode(secretBase32: string, unixSeconds: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(unixSeconds / 30)));
  const digest = createHmac('sha1', base32Decode(secretBase32)).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = (digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(binary).padStart(6, '0');
}
