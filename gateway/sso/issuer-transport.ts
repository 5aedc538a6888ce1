import type { FastifyInstance } from 'fastify';
import type { IssuerTransport } from './relying-party';
import { TEST_IDP_ISSUER } from './sso-sites';

/** A remote identity provider gets this long per call; an outage is an unanswered call, not a hang. */
const REMOTE_TIMEOUT_MS = 5000;

/**
 * The back channel to a site's issuer (ADR 0015). The gateway's own test provider is called
 * in-process through its real routes (`inject`), since the gateway cannot know the origin it is
 * reached on; any other issuer is called over the network.
 */
export function issuerTransportFor(issuerUrl: string, gateway: FastifyInstance): IssuerTransport {
  return issuerUrl === TEST_IDP_ISSUER ? inProcessTransport(gateway) : remoteTransport;
}

const issuerOrigin = new URL(TEST_IDP_ISSUER).origin;
const pathOnGateway = (url: string) => (url.startsWith(issuerOrigin) ? url.slice(issuerOrigin.length) : url);

function inProcessTransport(gateway: FastifyInstance): IssuerTransport {
  const answer = (response: { statusCode: number; body: string }) => ({ status: response.statusCode, body: parseJson(response.body) });
  return {
    getJson: async (url) => answer(await gateway.inject({ method: 'GET', url: pathOnGateway(url) })),
    postForm: async (url, fields) =>
      answer(await gateway.inject({ method: 'POST', url: pathOnGateway(url), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() })),
  };
}

const remoteTransport: IssuerTransport = {
  getJson: (url) => remoteCall(url, { method: 'GET' }),
  postForm: (url, fields) => remoteCall(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }),
};

async function remoteCall(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  try {
    const response = await fetch(url, { ...init, headers: { accept: 'application/json', ...init.headers }, redirect: 'error', signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS) });
    return { status: response.status, body: parseJson(await response.text()) };
  } catch {
    return { status: 0, body: null };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
