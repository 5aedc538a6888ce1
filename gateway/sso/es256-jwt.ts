import { createECDH, createPrivateKey, createPublicKey, hkdfSync, sign, verify, createHash, type JsonWebKey, type KeyObject } from 'node:crypto';

/** A public signing key as a JWKS lists it (RFC 7517), EC P-256 only. */
export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  use: 'sig';
  alg: 'ES256';
}

export interface SigningKey {
  privateKey: KeyObject;
  publicJwk: PublicJwk;
}

/**
 * The test identity provider's ES256 key, derived from the gateway's token signing key so every
 * instance sharing that key signs with the same key and publishes the same JWKS (ADR 0015).
 */
export function deriveSigningKey(tokenSigningKey: Buffer): SigningKey {
  const scalar = Buffer.from(hkdfSync('sha256', tokenSigningKey, 'test-idp', 'es256 signing key', 32));
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(scalar);
  const point = ecdh.getPublicKey();
  const x = point.subarray(1, 33).toString('base64url');
  const y = point.subarray(33, 65).toString('base64url');
  const kid = createHash('sha256').update(point).digest('base64url').slice(0, 16);
  const privateKey = createPrivateKey({ key: { kty: 'EC', crv: 'P-256', x, y, d: scalar.toString('base64url') }, format: 'jwk' });
  return { privateKey, publicJwk: { kty: 'EC', crv: 'P-256', x, y, kid, use: 'sig', alg: 'ES256' } };
}

const encodePart = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function signEs256Jwt(claims: Record<string, unknown>, key: SigningKey): string {
  const input = `${encodePart({ alg: 'ES256', typ: 'JWT', kid: key.publicJwk.kid })}.${encodePart(claims)}`;
  const signature = sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/** Why a token was refused; the relying party turns it into an error code. */
export type JwtRefusal = 'malformed' | 'unknownKey' | 'badSignature';

/**
 * The claims of an ES256 JWT whose signature verifies with the JWKS key its header names, or the
 * reason it does not. Only ES256 is accepted: `alg: none` or an HMAC alg can never pass.
 */
export function verifyEs256Jwt(token: string, keys: readonly unknown[]): { claims: Record<string, unknown> } | { refusal: JwtRefusal } {
  const parts = token.split('.');
  if (parts.length !== 3) return { refusal: 'malformed' };
  const [headerPart = '', claimsPart = '', signaturePart = ''] = parts;
  const header = parseJsonPart(headerPart);
  const claims = parseJsonPart(claimsPart);
  if (header === null || claims === null || header.alg !== 'ES256') return { refusal: 'malformed' };
  const jwk = keys.find((key): key is JsonWebKey => isRecord(key) && key.kid === header.kid && key.kty === 'EC' && key.crv === 'P-256');
  if (jwk === undefined) return { refusal: 'unknownKey' };
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, format: 'jwk' });
  } catch {
    return { refusal: 'unknownKey' };
  }
  const valid = verify('sha256', Buffer.from(`${headerPart}.${claimsPart}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signaturePart, 'base64url'));
  return valid ? { claims } : { refusal: 'badSignature' };
}

function parseJsonPart(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
