import { createECDH, createHash, createPrivateKey, generateKeyPairSync, hkdfSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, SignJWT, type JWK } from 'jose';

/** The ID token algorithms the relying party accepts and the test identity provider can sign with (ADR 0015). */
export const ID_TOKEN_ALGORITHMS = ['RS256', 'PS256', 'ES256'] as const;
export type IdTokenAlgorithm = (typeof ID_TOKEN_ALGORITHMS)[number];

export interface TestIdpSigningKey {
  alg: IdTokenAlgorithm;
  kid: string;
  privateKey: KeyObject;
  /** As the JWKS lists it (RFC 7517): public parts only. */
  publicJwk: JWK;
}

/**
 * The test identity provider's default ES256 key, derived from the gateway's token signing key so
 * every instance sharing that key signs with the same key and publishes the same JWKS (ADR 0015).
 */
export function deriveSigningKey(tokenSigningKey: Buffer): TestIdpSigningKey {
  const scalar = Buffer.from(hkdfSync('sha256', tokenSigningKey, 'test-idp', 'es256 signing key', 32));
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(scalar);
  const point = ecdh.getPublicKey();
  const x = point.subarray(1, 33).toString('base64url');
  const y = point.subarray(33, 65).toString('base64url');
  const kid = createHash('sha256').update(point).digest('base64url').slice(0, 16);
  const privateKey = createPrivateKey({ key: { kty: 'EC', crv: 'P-256', x, y, d: scalar.toString('base64url') }, format: 'jwk' });
  return { alg: 'ES256', kid, privateKey, publicJwk: { kty: 'EC', crv: 'P-256', x, y, kid, use: 'sig', alg: 'ES256' } };
}

/**
 * A fresh key of `alg` (RSA 2048 for RS256 and PS256). Not derived, so only for one instance: tests
 * and a developer trying a bank's algorithm on one machine.
 */
export async function generateSigningKey(alg: IdTokenAlgorithm): Promise<TestIdpSigningKey> {
  const { privateKey, publicKey } =
    alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' }) as JWK;
  const kid = (await calculateJwkThumbprint(jwk)).slice(0, 16);
  return { alg, kid, privateKey, publicJwk: { ...jwk, kid, use: 'sig', alg } };
}

/**
 * The provider's keys: it signs with the newest and publishes it with the one it replaced, as a
 * provider rotating its keys does, so tokens signed just before a rotation still verify.
 */
export class TestIdpKeys {
  private published: TestIdpSigningKey[];

  constructor(initial: TestIdpSigningKey) {
    this.published = [initial];
  }

  get signing(): TestIdpSigningKey {
    return this.published[0]!;
  }

  jwks(): { keys: JWK[] } {
    return { keys: this.published.map((key) => key.publicJwk) };
  }

  rotate(next: TestIdpSigningKey): void {
    this.published = [next, this.signing];
  }
}

/** A JWS of `claims` with `key`, `kid` in its header. */
export function signJwt(claims: Record<string, unknown>, key: Pick<TestIdpSigningKey, 'alg' | 'kid' | 'privateKey'>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, typ: 'JWT', kid: key.kid }).sign(key.privateKey);
}
