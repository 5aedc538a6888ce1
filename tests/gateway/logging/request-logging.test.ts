import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { capturingLogger } from '../support/capturing-logger';
import { buildTestGateway } from '../support/test-gateway';

// DESIGN "Contracts": card numbers never reach a log; nor do passwords, passcodes or tokens.
const PAN = '4111111111111111';
const SECRETS = [
  'hunter2-Secret',
  'otp-998877',
  'bearer-token-xyz',
  'xsrf-token-abc',
  'captcha-token-def',
  'session-cookie-ghi',
  'refresh-abc',
  'ana.query@example.com',
  'query-token-jkl',
];

/** Each request with its own X-CID, so its log lines can be told apart. */
const REQUESTS: (InjectOptions & { headers: { 'x-cid': string } })[] = [
  {
    method: 'POST',
    url: `/api/user-auth/oauth/token?password=hunter2-Secret&otp=otp-998877&pan=${PAN}`,
    headers: {
      'x-cid': 'log-test-token-call',
      'content-type': 'application/json',
      authorization: 'Bearer bearer-token-xyz',
      cookie: 'SESSION=session-cookie-ghi',
      'x-xsrf-token': 'xsrf-token-abc',
      'x-hcaptcha-token': 'captcha-token-def',
    },
    payload: { username: 'ana@example.com', password: 'hunter2-Secret', pan: '4111 1111 1111 1111' },
  },
  { method: 'GET', url: `/api/user-attribute/user/assets/${PAN}`, headers: { 'x-cid': 'log-test-pan-in-path' } },
  {
    method: 'POST',
    url: '/api/user-auth/tokens/revoke?refresh_token=refresh-abc',
    headers: { 'x-cid': 'log-test-broken-body', 'content-type': 'application/json' },
    payload: `{"pan": "${PAN}"`,
  },
  // A query parameter of no secret-sounding name is left out as well: the whole query string is.
  { method: 'GET', url: '/api/health?siteId=firstbank&email=ana.query%40example.com&x=query-token-jkl', headers: { 'x-cid': 'log-test-health-read' } },
  { method: 'GET', url: '/api/no-such-call?token=query-token-jkl', headers: { 'x-cid': 'log-test-unknown-call' } },
  // Refused by Fastify before routing (bad percent-encoding): no hook runs for it.
  { method: 'GET', url: '/api/site-config-service/config/site/%E0%A4%A?email=ana.query%40example.com', headers: { 'x-cid': 'log-test-bad-url' } },
];

interface Entry {
  level: number;
  msg: string;
  cid?: string;
  req?: { method: string; url: string };
  route?: string;
  res?: { statusCode: number };
  responseTime?: number;
  code?: string;
}

const { logger, lines } = capturingLogger();
let app: FastifyInstance;
const statuses = new Map<string, number>();
beforeAll(async () => {
  app = await buildTestGateway({ logger });
  for (const request of REQUESTS) statuses.set(request.headers['x-cid'], (await app.inject(request)).statusCode);
});
afterAll(() => app.close());

const entries = () => lines.map((line) => JSON.parse(line) as Entry);
const linesOf = (cid: string) => entries().filter((entry) => entry.cid === cid);

it('writes exactly one line per request, at info, when it is answered: method, path without the query, route, status, time and correlation id', () => {
  expect(entries().filter((entry) => entry.msg === 'incoming request')).toEqual([]);
  const expected: Record<string, Partial<Entry>> = {
    'log-test-token-call': { req: { method: 'POST', url: '/api/user-auth/oauth/token' }, route: '/api/user-auth/oauth/token' },
    'log-test-pan-in-path': { req: { method: 'GET', url: '/api/user-attribute/user/assets/[REDACTED]' }, route: '/api/user-attribute/user/assets/:siteId' },
    'log-test-broken-body': { req: { method: 'POST', url: '/api/user-auth/tokens/revoke' }, route: '/api/user-auth/tokens/revoke' },
    'log-test-health-read': { req: { method: 'GET', url: '/api/health' }, route: '/api/health' },
    'log-test-unknown-call': { req: { method: 'GET', url: '/api/no-such-call' } },
    'log-test-bad-url': { req: { method: 'GET', url: '/api/site-config-service/config/site/%E0%A4%A' }, code: 'FST_ERR_BAD_URL' },
  };
  for (const [cid, fields] of Object.entries(expected)) {
    const own = linesOf(cid);
    expect(own, cid).toHaveLength(1);
    expect(own[0], cid).toMatchObject({ level: 30, msg: 'request completed', ...fields, res: { statusCode: statuses.get(cid) } });
    expect(own[0]?.responseTime, cid).toBeGreaterThanOrEqual(0);
  }
  expect(statuses.get('log-test-health-read')).toBe(200);
  expect(statuses.get('log-test-bad-url')).toBe(400);
  expect(linesOf('log-test-unknown-call')[0]?.route).toBeUndefined();
  // Every line of the requests is one of the six.
  expect(entries().filter((entry) => entry.req)).toHaveLength(REQUESTS.length);
});

it('never writes a query string, card number, password, passcode, token or cookie', () => {
  const log = lines.join('\n');
  expect(log).not.toContain('?');
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
