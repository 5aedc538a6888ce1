import { createHmac } from 'node:crypto';

/**
 * SPEC §3 "Token payload: authorities, exp", ADR 0008: access tokens are JWTs signed HS256 with the
 * server's token key, carrying `sub`, `siteId`, `authorities` and `exp` (seconds). HS256 is a
 * single HMAC over two base64url parts, so no JWT library is needed to issue one.
 */
export interface AccessTokenClaims {
  sub: string;
  siteId: string;
  authorities: string[];
  /** Seconds since the epoch. */
  exp: number;
}

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export function signAccessToken(claims: AccessTokenClaims, key: Buffer, issuedAt: Date): string {
  const payload = base64url(JSON.stringify({ ...claims, iat: Math.floor(issuedAt.getTime() / 1000) }));
  const signature = createHmac('sha256', key).update(`${HEADER}.${payload}`).digest('base64url');
  return `${HEADER}.${payload}.${signature}`;
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
