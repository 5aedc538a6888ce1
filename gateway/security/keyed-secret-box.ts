import type { Clock } from '../time/clock';
import { ENV_KEY_ID, type KeyRing } from './key-ring';
import { createSecretBox } from './secret-box';

/**
 * ADR 0026 "Key rotation with a grace window": a box over the TOTP key ring. It seals under the current key,
 * naming it (`v2.{keyId}.{iv}.{tag}.{ciphertext}`); a `v1.` value from before the rings is the environment's key's.
 */
export interface KeyedSecretBox {
  seal(plaintext: string): string;
  /** The plaintext and whether another key than the current one sealed it (seal it again); null when that key has retired. */
  open(sealed: string): { plaintext: string; stale: boolean } | null;
}

export function createKeyedSecretBox(ring: KeyRing, clock: Clock): KeyedSecretBox {
  return {
    seal(plaintext) {
      const key = ring.current(clock.now());
      return `v2.${key.id}.${createSecretBox(key.secret).seal(plaintext).slice('v1.'.length)}`;
    },
    open(sealed) {
      const keyed = /^v2\.([a-z0-9]{1,16})\.(.*)$/s.exec(sealed);
      const keyId = keyed ? (keyed[1] ?? '') : ENV_KEY_ID;
      const now = clock.now();
      const key = ring.find(keyId, now);
      if (key === undefined) return null;
      const plaintext = createSecretBox(key.secret).open(keyed ? `v1.${keyed[2] ?? ''}` : sealed);
      return { plaintext, stale: key.id !== ring.current(now).id };
    },
  };
}
