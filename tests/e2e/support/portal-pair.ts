import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { Agent, createServer, request as forward, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline, type Readable, type Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pg from 'pg';
import { keepDumpForScan } from '../../security/secrecy-scan';
import { startPortal, type PortalProcess } from './portal-process';

/**
 * The scale path (DESIGN "The real parts"): two gateway processes on one fresh PostgreSQL database, their
 * sign-in counters in Redis under a prefix of their own, the same keys and the same DATA_DIR (so a
 * mail either writes to the development outbox is read through either), behind ONE port served
 * by a plain round-robin reverse proxy in the test process. No stickiness: every request goes to
 * the other instance than the one before, so a flow only works if the gateway keeps nothing of its
 * own between requests (DESIGN "Scale"; README "Environment").
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/** Why the pair cannot run here, or undefined when it can. */
export function portalPairSkipReason(): string | undefined {
  const missing = [TEST_DATABASE_URL === undefined ? 'TEST_DATABASE_URL' : '', TEST_REDIS_URL === undefined ? 'TEST_REDIS_URL' : ''].filter(
    (name) => name !== '',
  );
  if (missing.length === 0) return undefined;
  return `the two-instance scale path needs PostgreSQL and Redis: ${missing.join(' and ')} not set (e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test TEST_REDIS_URL=redis://127.0.0.1:6379)`;
}

export type InstanceLabel = 'a' | 'b';
const LABELS: readonly InstanceLabel[] = ['a', 'b'];
/** Response header the proxy adds: which instance it sent the request to (that instance's own log says so too, see `loggedBy`). */
export const INSTANCE_HEADER = 'x-portal-instance';

export interface PortalPair extends PortalProcess {
  instances: Readonly<Record<InstanceLabel, PortalProcess>>;
  /** The pair's own database (`DATABASE_URL` of both instances), dropped at stop. */
  databaseUrl: string;
  /** The pair's Redis key prefix (`REDIS_KEY_PREFIX` of both instances), its keys deleted at stop. */
  redisKeyPrefix: string;
  /**
   * The instances whose own log holds a request with this X-CID (every log line of a request carries
   * its `cid`): an independent check of where the proxy sent it. A client may send one X-CID again
   * (SPEC §7: the app repeats a learned one on sign-in calls), so it can be in both logs.
   */
  loggedBy(correlationId: string): InstanceLabel[];
  /**
   * Sends the next request that `matches` to `instance` instead of the next in turn, once: a test
   * puts consecutive steps of one flow on different instances on purpose. Every other request stays
   * round robin.
   */
  steerNext(matches: (method: string, path: string) => boolean, instance: InstanceLabel): void;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection and are not forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEndHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

/**
 * The test clock (`POST /api/test-support/clock`, GATEWAY_TEST_MODE only) is each process's own,
 * a test hook with no production counterpart: the proxy moves both, so the pair agrees on the time.
 */
const FAN_OUT_PATHS = new Set(['/api/test-support/clock']);

export async function startPortalPair(env: Record<string, string> = {}): Promise<PortalPair> {
  const skipReason = portalPairSkipReason();
  if (skipReason !== undefined || TEST_DATABASE_URL === undefined || TEST_REDIS_URL === undefined) throw new Error(`startPortalPair: ${skipReason}`);
  const suffix = randomBytes(8).toString('hex');
  const databaseName = `portal_pair_${suffix}`;
  const databaseUrl = withDatabase(TEST_DATABASE_URL, databaseName);
  const redisKeyPrefix = `portal-pair:${suffix}:`;
  await adminQuery(`create database ${databaseName}`);

  const sharedEnv: Record<string, string> = {
    DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-pair-')),
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: redisKeyPrefix,
    TOKEN_SIGNING_KEY: randomBytes(32).toString('hex'),
    TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    CARD_FINGERPRINT_KEY: randomBytes(32).toString('hex'),
    ...env,
  };
  const dataDir = sharedEnv.DATA_DIR ?? '';
  const started = await Promise.allSettled(LABELS.map(() => startPortal(sharedEnv)));
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed !== undefined) {
    await Promise.all(running.map((instance) => instance.stop()));
    await dropPairState(databaseName, redisKeyPrefix);
    throw failed.reason;
  }
  const instances = { a: running[0]!, b: running[1]! };
  const proxy = await startRoundRobinProxy(instances, sharedEnv.TRUST_PROXY !== undefined && sharedEnv.TRUST_PROXY !== 'false');

  const output = () => LABELS.map((label) => `--- gateway instance ${label} (${instances[label].baseUrl}) ---\n${instances[label].output()}`).join('\n');
  return {
    baseUrl: proxy.baseUrl,
    dataDir,
    instances,
    databaseUrl,
    redisKeyPrefix,
    output,
    loggedBy: (correlationId) => LABELS.filter((label) => instances[label].output().includes(`"cid":"${correlationId}"`)),
    steerNext: proxy.steerNext,
    stop: async (signal = 'SIGTERM') => {
      await proxy.close();
      const codes = await Promise.all(LABELS.map((label) => instances[label].stop(signal)));
      // The secrecy scan (README "Set-up") after the whole run reads this database too, from its dump.
      await keepDumpForScan(databaseUrl, databaseName, dataDir);
      await dropPairState(databaseName, redisKeyPrefix);
      return codes.find((code) => code !== 0) ?? 0;
    },
  };
}

interface RoundRobinProxy {
  baseUrl: string;
  steerNext: PortalPair['steerNext'];
  close(): Promise<void>;
}

/** Plain node:http: method, path, headers (cookies included) and bodies streamed through as they are. */
async function startRoundRobinProxy(instances: Readonly<Record<InstanceLabel, PortalProcess>>, trustProxy: boolean): Promise<RoundRobinProxy> {
  const agent = new Agent({ keepAlive: true });
  let turn = 0;
  const steered: { matches: (method: string, path: string) => boolean; instance: InstanceLabel }[] = [];

  const pick = (method: string, path: string): InstanceLabel => {
    const index = steered.findIndex((rule) => rule.matches(method, path));
    if (index >= 0) return steered.splice(index, 1)[0]!.instance;
    const label = LABELS[turn % LABELS.length]!;
    turn += 1;
    return label;
  };

  const headersFor = (request: IncomingMessage): IncomingHttpHeaders => {
    const headers = endToEndHeaders(request.headers);
    // A load balancer names the client it saw; the gateway believes it only with TRUST_PROXY set.
    if (trustProxy) {
      const seen = request.socket.remoteAddress ?? '';
      headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${String(headers['x-forwarded-for'])}, ${seen}` : seen;
    }
    return headers;
  };

  const send = (
    label: InstanceLabel,
    request: IncomingMessage,
    body: Buffer | null,
    respond: ((upstream: IncomingMessage) => void) | null,
  ): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      const target = new URL(instances[label].baseUrl);
      const upstream = forward(
        { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: headersFor(request), agent },
        (answer) => {
          respond?.(answer);
          resolve(answer);
        },
      );
      upstream.once('error', reject);
      if (body === null) pipeOrDrop(request, upstream);
      else upstream.end(body);
    });

  const relay = (label: InstanceLabel, response: ServerResponse) => (answer: IncomingMessage) => {
    // The browser may have gone before the answer came (a navigation cancels the page's pending requests).
    if (response.destroyed) {
      answer.resume();
      return;
    }
    response.writeHead(answer.statusCode ?? 502, { ...endToEndHeaders(answer.headers), [INSTANCE_HEADER]: label });
    pipeOrDrop(answer, response);
  };

  const server: Server = createServer((request, response) => {
    const method = request.method ?? 'GET';
    const path = new URL(request.url ?? '/', 'http://proxy').pathname;
    const failed = (error: Error) => {
      if (!response.headersSent)
        response.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'BAD_GATEWAY', message: error.message }));
      else response.destroy(error);
    };
    if (method === 'POST' && FAN_OUT_PATHS.has(path)) {
      void fanOut(request, response).catch(failed);
      return;
    }
    const label = pick(method, path);
    send(label, request, null, relay(label, response)).catch(failed);
  });

  /** The same call to instance a, then b; the answer is b's, or a's refusal when a refused (nothing is hidden). */
  const fanOut = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const first = await send('a', request, body, null);
    if ((first.statusCode ?? 502) >= 400) {
      relay('a', response)(first);
      return;
    }
    first.resume();
    await send('b', request, body, relay('b', response));
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    steerNext: (matches, instance) => steered.push({ matches, instance }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Leaves the servers as they were: the pair's database and its Redis keys go. */
async function dropPairState(databaseName: string, redisKeyPrefix: string): Promise<void> {
  await adminQuery(`drop database if exists ${databaseName} with (force)`);
  const redis = new Redis(TEST_REDIS_URL ?? '', { maxRetriesPerRequest: 1 });
  try {
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `${redisKeyPrefix}*`, count: 500 })) keys.push(...(batch as string[]));
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}

/**
 * Streams `source` into `destination`: a client or an instance that goes away mid-body ends both sides,
 * never the test process. `pipeline` throws at once when either side is already destroyed (Node's
 * ERR_STREAM_UNABLE_TO_PIPE), which happens when the browser cancels a request the proxy is still relaying.
 */
function pipeOrDrop(source: Readable, destination: Writable): void {
  if (source.destroyed || destination.destroyed) {
    source.destroy();
    destination.destroy();
    return;
  }
  pipeline(source, destination, () => undefined);
}
