import { createHmac } from 'node:crypto';
import type { RingKey } from '../security/key-ring';

/**
 * SPEC §3 "Token payload: authorities, exp", ADR 0008: access tokens are JWTs signed HS256 with the
 * server's token key, carrying `sub`, `siteId`, `authorities` and `exp` (seconds). HS256 is a
 * single HMAC over two base64url parts, so no JWT library is needed to issue one. ADR 0026: the header's
 * `kid` names the token key of the ring that signed it.
 */
export interface AccessTokenClaims {
  sub: string;
  siteId: string;
  authorities: string[];
  /** Seconds since the epoch. */
  exp: number;
}

export function signAccessToken(claims: AccessTokenClaims, key: RingKey, issuedAt: Date): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: key.id }));
  const payload = base64url(JSON.stringify({ ...claims, iat: Math.floor(issuedAt.getTime() / 1000) }));
  const signature = createHmac('sha256', key.secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
