import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { capturingLogger } from '../support/capturing-logger';
import { buildTestGateway } from '../support/test-gateway';

// DESIGN "Contracts": card numbers never reach a log; nor do passwords, passcodes or tokens.
const PAN = '4111111111111111';
const SECRETS = ['hunter2-Secret', 'otp-998877', 'bearer-token-xyz', 'xsrf-token-abc', 'captcha-token-def', 'session-cookie-ghi', 'refresh-abc'];

const { logger, lines } = capturingLogger();
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestGateway({ logger });
  await app.inject({
    method: 'POST',
    url: `/api/user-auth/oauth/token?password=hunter2-Secret&otp=otp-998877&pan=${PAN}`,
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer bearer-token-xyz',
      cookie: 'SESSION=session-cookie-ghi',
      'x-xsrf-token': 'xsrf-token-abc',
      'x-hcaptcha-token': 'captcha-token-def',
    },
    payload: { username: 'ana@example.com', password: 'hunter2-Secret', pan: '4111 1111 1111 1111' },
  });
  await app.inject({ method: 'GET', url: `/api/user-attribute/user/assets/${PAN}` });
  await app.inject({
    method: 'POST',
    url: '/api/user-auth/tokens/revoke?refresh_token=refresh-abc',
    headers: { 'content-type': 'application/json' },
    payload: `{"pan": "${PAN}"`,
  });
});
afterAll(() => app.close());

it('logs each request as JSON with its correlation id', () => {
  const entries = lines.map((line) => JSON.parse(line) as { cid?: string; req?: { method: string; url: string } });
  const incoming = entries.filter((entry) => entry.req);
  expect(incoming).toHaveLength(3);
  for (const entry of incoming) expect(entry.cid).toMatch(/^[0-9a-f-]{36}$/);
  expect(incoming[0]?.req?.url).toBe('/api/user-auth/oauth/token?password=[REDACTED]&otp=[REDACTED]&pan=[REDACTED]');
});

it('never writes a card number, password, passcode, token or cookie', () => {
  const log = lines.join('\n');
  // Numbers such as the epoch `time` are not card numbers; every string value is checked.
  for (const text of lines.flatMap((line) => stringsIn(JSON.parse(line)))) expect(text).not.toMatch(/\d(?:[ -]?\d){11,}/);
  expect(log).not.toContain(PAN);
  for (const secret of SECRETS) expect(log).not.toContain(secret);
  expect(log.toLowerCase()).not.toContain('authorization');
});

it('redacts secret keys and headers that code logs by mistake', () => {
  lines.length = 0;
  logger.info(
    {
      password: 'hunter2-Secret',
      user: { token: 'bearer-token-xyz' },
      headers: { authorization: 'Bearer bearer-token-xyz', cookie: 'SESSION=session-cookie-ghi' },
    },
    'oops',
  );
  const entry = JSON.parse(lines[0] ?? '{}');
  expect(entry).toMatchObject({ password: '[REDACTED]', user: { token: '[REDACTED]' }, headers: { authorization: '[REDACTED]', cookie: '[REDACTED]' } });
});

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, inner]) => [key, ...stringsIn(inner)]);
  return [];
}
