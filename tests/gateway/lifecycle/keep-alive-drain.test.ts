/**
 * README "Stopping": SIGTERM drains the real gateway process (`gateway/main.ts`, built as `npm start` runs
 * it) while keep-alive clients hold its connections with requests in flight. Every request already sent
 * gets an answer, the process exits 0 within its grace period, and the embedded database under DATA_DIR
 * was closed (ADR 0003) with its files made private again.
 */
import { Agent, request, type ClientRequest } from 'node:http';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openPglite } from '../../../gateway/db/open-pglite';
import { PRIVATE_FILE_MODE } from '../../../gateway/security/private-data-dir';
import { startPortal, type PortalProcess } from '../../e2e/support/portal-process';

/** main.ts's grace period: past it the process exits 1. */
const GRACE_MS = 10_000;
const REQUESTS = 100;
const XSRF = 'drain-test-xsrf-0123456789';
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

/** The answer of a request already written; rejects when its connection ends without one. */
function answerOf(sent: ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    sent.on('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body }));
      response.on('error', reject);
    });
    sent.on('error', reject);
  });
}

function get(agent: Agent, url: string): Promise<Answer> {
  const sent = request(url, { agent });
  sent.end();
  return answerOf(sent);
}

/** A form check (it writes nothing) whose body is still arriving: the request is in flight until `finish` is called. */
function slowPost(agent: Agent, url: string): { answer: Promise<Answer>; written: Promise<void>; finish: () => void } {
  const body = Buffer.from(JSON.stringify({ email: 'drain@example.com', first_name: 'Drain' }));
  const sent = request(url, {
    agent,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(body.length), cookie: `XSRF-TOKEN=${XSRF}`, 'x-xsrf-token': XSRF },
  });
  const answer = answerOf(sent);
  const half = Math.floor(body.length / 2);
  const written = new Promise<void>((resolve) => sent.write(body.subarray(0, half), () => resolve()));
  return { answer, written, finish: () => sent.end(body.subarray(half)) };
}

async function filesOf(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesOf(path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

let portal: PortalProcess | undefined;
afterAll(async () => {
  await portal?.stop('SIGKILL');
});

it('answers every request sent on busy keep-alive connections, then exits 0 within the grace with the database closed', async () => {
  portal = await startPortal();
  // One connection per request, opened and kept alive beforehand, as a load balancer's are: every request of
  // the burst is written at once, none waits in the agent for a connection.
  const agent = new Agent({ keepAlive: true, maxSockets: REQUESTS });
  const warm = await Promise.all(Array.from({ length: REQUESTS }, () => get(agent, `${portal!.baseUrl}/api/health`)));
  expect(warm.map((answer) => answer.status)).toEqual(Array(REQUESTS).fill(200));

  // Half of them carry a body that is still arriving at SIGTERM: the gateway has started on them, and
  // answers them after the signal. The other half are a burst the database answers one query at a time.
  const posts = Array.from({ length: REQUESTS / 2 }, () => slowPost(agent, `${portal!.baseUrl}/api/forms/firstbank/registration/validate`));
  await Promise.all(posts.map((post) => post.written));
  const gets = Array.from({ length: REQUESTS / 2 }, () => get(agent, `${portal!.baseUrl}/api/health`));
  const answers = [...posts.map((post) => post.answer), ...gets];
  // The gateway has read the half-sent requests' headers by now (they arrived before the burst).
  await Promise.race(gets);
  const signalled = Date.now();
  const exitCode = portal.stop('SIGTERM');
  await wait(500);
  for (const post of posts) post.finish();
  const settled = await Promise.allSettled(answers);
  const code = await exitCode;
  const tookMs = Date.now() - signalled;
  agent.destroy();

  // Every request the agent wrote got an answer: served, or refused in the gateway's own shape.
  const unanswered = settled.filter((outcome) => outcome.status === 'rejected');
  expect(unanswered.map((outcome) => String(outcome.reason))).toEqual([]);
  for (const outcome of settled) {
    const answer = (outcome as PromiseFulfilledResult<Answer>).value;
    if (answer.status !== 200 && answer.status !== 400) {
      expect(answer.status).toBe(503);
      expect(Object.keys(JSON.parse(answer.body) as object).sort()).toEqual(['error', 'message']);
    }
  }
  // Each connection closes after its answer, so none keeps the process past the grace (Node keeps an idle one 72 s).
  for (const outcome of settled.slice(0, posts.length)) expect((outcome as PromiseFulfilledResult<Answer>).value.connection).toBe('close');
  expect(code).toBe(0);
  expect(tookMs).toBeLessThan(GRACE_MS);
  expect(portal.output()).toContain('"msg":"stopped"');
  expect(portal.output()).not.toContain('shutdown took too long');

  // The database was closed, not cut off: it opens again with its data, and no file was left open to others.
  for (const file of await filesOf(join(portal.dataDir, 'db'))) expect.soft((await lstat(file)).mode & 0o777, file).toBe(PRIVATE_FILE_MODE);
  const db = await openPglite(join(portal.dataDir, 'db'));
  try {
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from schema_migrations');
    expect(rows[0]!.n).toBeGreaterThan(0);
  } finally {
    await db.close();
  }
}, 120_000);
