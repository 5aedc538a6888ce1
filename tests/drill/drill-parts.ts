/**
 * The fault drill's moving parts (README "Fault drill", ADR 0026): gateway processes of the built bundle,
 * a round-robin HTTP proxy in front of them, and a TCP relay in front of PostgreSQL or Redis that can be
 * cut to make an outage without any control of the servers themselves. Loopback only, ports picked at run time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, request as forward, type IncomingMessage, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { freePort } from '../support/free-port';
import { REPO_ROOT } from '../e2e/support/paths';

export interface GatewayInstance {
  label: string;
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
}

/** Starts `node <entry>` as `npm start` runs it (development mode) on a free loopback port; resolves when ready. */
export async function startGateway(label: string, entry: string, env: Record<string, string>): Promise<GatewayInstance> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [entry], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The last 20 kB only: enough to say why a start failed.
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${String(port)}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`gateway ${label} exited before it was ready:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health/ready`, { signal: AbortSignal.timeout(1000) })).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`gateway ${label} was not ready within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { label, url, child, exited, output: () => output };
}

/** Stops an instance with `signal` and waits for its exit (SIGKILL after `graceMs`). */
export async function stopGateway(instance: GatewayInstance, signal: NodeJS.Signals, graceMs = 15_000): Promise<number | null> {
  if (instance.child.exitCode === null && instance.child.signalCode === null) instance.child.kill(signal);
  const timer = setTimeout(() => instance.child.kill('SIGKILL'), graceMs);
  try {
    return await instance.exited;
  } finally {
    clearTimeout(timer);
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) are not forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Marks the proxy's own answers (no gateway answered), so the tables tell them apart. */
export const PROXY_ANSWER_HEADER = 'x-drill-proxy';

export interface RoundRobinProxy {
  url: string;
  /** The instances requests go to, in turn; replaced as instances are restarted. */
  upstreams: string[];
  close: () => Promise<void>;
}

/**
 * A load balancer at its plainest: each request to the next upstream in turn. A request whose connection is
 * refused (nothing listens: the instance is down) is sent to the next one, as a load balancer does: it never
 * reached a gateway; when none listens the proxy answers 502 `NO_INSTANCE_LISTENING`. Anything else that goes
 * wrong on the way (a connection reset: `UPSTREAM_ECONNRESET`) answers 502 too, and is not repeated: the proxy
 * cannot know whether the gateway acted on it.
 */
export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  let turn = 0;
  const proxy = { upstreams } as RoundRobinProxy;
  const server: Server = createHttpServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
      const fail = (status: number, error: string) => {
        if (response.headersSent) return response.destroy();
        response
          .writeHead(status, { 'content-type': 'application/json', [PROXY_ANSWER_HEADER]: '1' })
          .end(JSON.stringify({ error, message: `drill proxy: ${error}` }));
      };
      const attempt = (left: number) => {
        const list = proxy.upstreams;
        if (list.length === 0) return fail(502, 'NO_INSTANCE_LISTENING');
        const target = new URL(request.url ?? '/', list[turn++ % list.length]);
        const outgoing = forward(target, { method: request.method, headers, agent: false }, (answer) => {
          response.writeHead(answer.statusCode ?? 502, Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name))));
          answer.pipe(response);
          answer.once('error', () => response.destroy());
        });
        outgoing.once('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'ECONNREFUSED' && left > 0) attempt(left - 1);
          else fail(502, error.code === 'ECONNREFUSED' ? 'NO_INSTANCE_LISTENING' : `UPSTREAM_${error.code ?? 'FAILED'}`);
        });
        outgoing.end(body);
      };
      attempt(proxy.upstreams.length);
    })();
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  proxy.url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

export interface TcpRelay {
  port: number;
  /** Cuts every open connection and refuses new ones until `restore`: the server looks down to the gateway. */
  cut: () => void;
  restore: () => void;
  close: () => Promise<void>;
}

/** A TCP relay from a loopback port to `target` (PostgreSQL or Redis) that the drill can cut. */
export async function startTcpRelay(targetHost: string, targetPort: number): Promise<TcpRelay> {
  let isCut = false;
  const open = new Set<Socket>();
  const server = createTcpServer((client) => {
    if (isCut) return client.destroy();
    const upstream = connect(targetPort, targetHost);
    open.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut: () => {
      isCut = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    restore: () => {
      isCut = false;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
