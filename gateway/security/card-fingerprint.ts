import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import type { Clock } from '../time/clock';
import type { KeyRing } from './key-ring';
import { MIN_KEY_BYTES } from './server-keys';

/**
 * Card numbers are never stored (DESIGN "Contracts"). To still recognise the same card twice
 * (SPEC §5 "Duplicate of a listed number invalid") the database keeps an HMAC-SHA256 of the
 * digits under a server key: without the key, the 16 digits cannot be brute-forced back out
 * of a fingerprint the way a plain hash could.
 *
 * ADR 0026 "Key rotation with a grace window": the current card key fingerprints what is stored, and since a
 * fingerprint cannot be made again without the number, every earlier card key still fingerprints each number
 * given, so a card stored under any of them is recognised.
 */
export interface CardFingerprints {
  /** The id of the key of `fingerprint`: the current one. */
  keyId: string;
  fingerprint: string;
  /** The number's fingerprints under every earlier card key: what an earlier card of it is stored as. */
  earlier: string[];
}

export type CardFingerprinter = (pan: string) => CardFingerprints;

const CARD_DIGITS = /^\d{12,19}$/;
export const KEY_FILE = join('secrets', 'card-fingerprint.key');

export function createCardFingerprinter(ring: KeyRing, clock: Clock): CardFingerprinter {
  return (pan) => {
    const digits = pan.replace(/[\s-]/g, '');
    // The message never repeats the input: it may be a card number.
    if (!CARD_DIGITS.test(digits)) throw new Error('A card number must be 12 to 19 digits');
    const now = clock.now();
    const current = ring.current(now);
    const keys = ring.live(now);
    if (keys.some((key) => key.secret.length < MIN_KEY_BYTES)) throw new Error(`The card fingerprint key must be at least ${MIN_KEY_BYTES} bytes`);
    const of = (secret: Buffer) => createHmac('sha256', secret).update(digits).digest('hex');
    return { keyId: current.id, fingerprint: of(current.secret), earlier: keys.filter((key) => key !== current).map((key) => of(key.secret)) };
  };
}
