import { createHmac, timingSafeEqual } from 'node:crypto';
import { ENV_KEY_ID, type KeyRing } from '../security/key-ring';

/**
 * Small tamper-proof cookie values (ADR 0008's LOGIN_CHALLENGE and TRUSTED_DEVICE): a JSON payload
 * with its purpose and expiry, plus an HMAC under the server's token key. Nothing is stored; a
 * value from one purpose never passes as another, and an expired one reads as absent. ADR 0026: the value
 * names its key (`{body}.{mac}.{keyId}`; one without is the environment's key's) and verifies while that key lives.
 */
interface SignedPayload {
  /** What the value is for; part of the MAC input, so purposes cannot be swapped. */
  purpose: string;
  userId: string;
  siteId: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** A trusted device's account stamp when it was trusted (ADR 0025): a new stamp ends the trust. */
  stamp?: string;
  /** A trusted device's passcode channel: the proof it stands for (ADR 0025). */
  channel?: 'email' | 'sms';
  /** A trusted device's row in `trusted_devices`: how the holder's list knows "this device"; it proves nothing. */
  trustId?: string;
}

export function signValue(payload: SignedPayload, ring: KeyRing, now: Date): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  const key = ring.current(now);
  return `${body}.${mac(body, key.secret)}.${key.id}`;
}

/** The payload when `value` is genuine, of `purpose`, and not expired at `now`; otherwise null. */
export function readSignedValue(value: string | undefined, purpose: string, ring: KeyRing, now: Date): SignedPayload | null {
  if (value === undefined) return null;
  const [body, signature, keyId = ENV_KEY_ID, ...rest] = value.split('.');
  const key = ring.find(keyId, now);
  if (body === undefined || signature === undefined || rest.length > 0 || key === undefined) return null;
  const expected = Buffer.from(mac(body, key.secret));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SignedPayload;
  if (payload.purpose !== purpose || payload.expiresAt <= now.getTime()) return null;
  return payload;
}

function mac(body: string, key: Buffer): string {
  return createHmac('sha256', key).update(`signed-value:${body}`).digest('base64url');
}
