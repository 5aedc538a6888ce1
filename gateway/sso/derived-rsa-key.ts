import { checkPrimeSync, createHmac, createPrivateKey, type KeyObject } from 'node:crypto';

/**
 * An RSA 2048 key derived from a secret: the same secret gives the same key in every process. Node makes RSA keys
 * only from its own randomness, so this draws the primes' starting points from HMAC-SHA256(secret, label ‖ counter)
 * (FIPS 186-4 B.3.3's way of making probable primes, with a deterministic source). For development only: the test
 * SAML identity provider (ADR 0028), whose instances behind one address must sign alike, as the OpenID test
 * provider's derived key does (ADR 0015).
 */
export function deriveRsaKey(secret: Buffer, label: string): KeyObject {
  const draw = drawingFrom(secret, label);
  const e = 65537n;
  const p = probablePrime(draw, e);
  let q = probablePrime(draw, e);
  // FIPS 186-4 B.3.1: p and q far enough apart that n cannot be factored from its square root.
  while (absolute(p - q) >> 924n === 0n) q = probablePrime(draw, e);
  const n = p * q;
  const lambda = ((p - 1n) * (q - 1n)) / gcd(p - 1n, q - 1n);
  const d = modInverse(e, lambda);
  const jwk = {
    kty: 'RSA',
    n: base64url(n),
    e: base64url(e),
    d: base64url(d),
    p: base64url(p),
    q: base64url(q),
    dp: base64url(d % (p - 1n)),
    dq: base64url(d % (q - 1n)),
    qi: base64url(modInverse(q, p)),
  };
  return createPrivateKey({ key: jwk, format: 'jwk' });
}

/** 1024 bits at a time from HMAC-SHA256 over a counter. */
function drawingFrom(secret: Buffer, label: string): () => bigint {
  let counter = 0;
  return () => {
    const blocks = Array.from({ length: 4 }, () =>
      createHmac('sha256', secret)
        .update(`${label}\u0000${String(counter++)}`)
        .digest(),
    );
    return BigInt(`0x${Buffer.concat(blocks).toString('hex')}`);
  };
}

/**
 * A 1024-bit probable prime with its two top bits set (so p·q has 2048 bits) and p − 1 prime to `e`: the first one
 * counting up by two from a drawn odd start (FIPS 186-4 C.3 tests each, in OpenSSL through `checkPrimeSync`: trial
 * division, then Miller-Rabin; whatever bases it picks, the answer for a number is the same, so the key is).
 */
function probablePrime(draw: () => bigint, e: bigint): bigint {
  for (let candidate = draw() | (3n << 1022n) | 1n; ; candidate += 2n) {
    if (candidate >> 1024n !== 0n) candidate = draw() | (3n << 1022n) | 1n;
    if (gcd(candidate - 1n, e) === 1n && checkPrimeSync(candidate, { checks: 5 })) return candidate;
  }
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function modInverse(value: bigint, modulus: bigint): bigint {
  let [oldR, r] = [value % modulus, modulus];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const quotient = oldR / r;
    [oldR, r] = [r, oldR - quotient * r];
    [oldS, s] = [s, oldS - quotient * s];
  }
  return ((oldS % modulus) + modulus) % modulus;
}

const absolute = (value: bigint) => (value < 0n ? -value : value);

function base64url(value: bigint): string {
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return Buffer.from(hex, 'hex').toString('base64url');
}
