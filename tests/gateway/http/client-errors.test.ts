import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../gateway/http/security-headers';
import { capturingLogger } from '../support/capturing-logger';
import { buildTestGateway } from '../support/test-gateway';

/**
 * Answers the gateway writes before any route runs (a malformed request line or header, headers too
 * large, bad percent-encoding) carry the security headers and the JSON error shape of every other
 * answer (DESIGN "Contracts", "Quality bars"), sent over a real socket since `inject` skips the
 * HTTP parser. The log keeps the parser's code, never the raw request.
 */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const SECRET_COOKIE = 'SESSION=raw-session-secret-42';

describe('answers before routing', () => {
  const log = capturingLogger();
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = await buildTestGateway({ logger: log.logger });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  /** Writes `request` on a fresh connection and reads until the server closes it. */
  function raw(request: string): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(request));
      const chunks: Buffer[] = [];
      socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const [head = '', ...rest] = text.split('\r\n\r\n');
        const [statusLine = '', ...lines] = head.split('\r\n');
        const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
      });
    });
  }

  const expectGatewayAnswer = (answer: RawAnswer, status: number, code: string) => {
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(answer.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(answer.headers['x-cid']).toMatch(/^[0-9a-f-]{36}$/);
    const body = JSON.parse(answer.body) as { error: string; message: string };
    expect(body.error).toBe(code);
    expect(body.message.length).toBeGreaterThan(10);
    expect(Object.keys(body)).toEqual(['error', 'message']);
  };

  it('bad percent-encoding in the path: 400 BAD_REQUEST with the headers', async () => {
    expectGatewayAnswer(await raw('GET /api/user-attribute/user/%E0%A4%A HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'), 400, 'BAD_REQUEST');
  });

  it('headers larger than Node accepts: 431 HEADERS_TOO_LARGE with the headers; the log has neither the header nor the cookie', async () => {
    log.lines.length = 0;
    const answer = await raw(`GET /api/health HTTP/1.1\r\nHost: localhost\r\nCookie: ${SECRET_COOKIE}\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectGatewayAnswer(answer, 431, 'HEADERS_TOO_LARGE');
    const line = log.lines.find((entry) => entry.includes('client error before routing'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ code: 'HPE_HEADER_OVERFLOW', statusCode: 431, cid: answer.headers['x-cid'] });
    expect(log.lines.join('\n')).not.toContain('raw-session-secret-42');
    expect(log.lines.join('\n')).not.toContain('aaaaaaaaaa');
  });

  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n'],
    ['a control character in a header value', 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-SITE-ID: first\u0001bank\r\n\r\n'],
    ['a header without a colon', 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nno colon here\r\n\r\n'],
    ['a body length that is not a number', 'POST /api/health HTTP/1.1\r\nHost: localhost\r\nContent-Length: ten\r\n\r\n'],
  ])('%s: 400 BAD_REQUEST with the headers', async (_name, request) => {
    expectGatewayAnswer(await raw(request), 400, 'BAD_REQUEST');
  });

  it('a well-formed request still gets its route, with the same headers', async () => {
    const answer = await raw('GET /api/no-such-call HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expectGatewayAnswer(answer, 404, 'NOT_FOUND');
  });
});
