import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * ADR 0017 "Declared access", `operator`: whether `authorization` is `Bearer <METRICS_TOKEN>` (README "Metrics"). Both sides are hashed first, so the comparison takes
 * the same time whatever the length of what was sent.
 */
export function holdsOperatorToken(authorization: string | undefined, token: string): boolean {
  const sent = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  if (sent === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(sent), digest(token));
}
