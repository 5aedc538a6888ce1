import type { FastifyInstance } from 'fastify';
import { TEST_IDP_ISSUER } from './sso-sites';

/** A remote identity provider gets this long per call; an outage is an unanswered call, not a hang. */
export const REMOTE_TIMEOUT_MS = 5000;

/**
 * A call to the issuer: the test provider in-process, any other issuer over the network (ADR 0015).
 * `fetch` is what openid-client calls (its `customFetch`); `getJson` and `postForm` are shorthands.
 */
export interface IssuerTransport {
  fetch(url: string, init: RequestInit): Promise<Response>;
  getJson(url: string): Promise<{ status: number; body: unknown }>;
  postForm(url: string, fields: Record<string, string>): Promise<{ status: number; body: unknown }>;
}

/**
 * The back channel to a site's issuer (ADR 0015). The gateway's own test provider is called
 * in-process through its real routes (`inject`), since the gateway cannot know the origin it is
 * reached on; any other issuer is called over the network. One transport per gateway, so what the
 * relying party caches per transport (discovery, JWKS) lives as long as the gateway.
 */
export function issuerTransportFor(issuerUrl: string, gateway: FastifyInstance): IssuerTransport {
  if (issuerUrl !== TEST_IDP_ISSUER) return remoteTransport;
  let transport = inProcessTransports.get(gateway);
  if (!transport) {
    transport = { ...withShorthands(inProcessFetch(gateway, false)), fetch: inProcessFetch(gateway, true) };
    inProcessTransports.set(gateway, transport);
  }
  return transport;
}

const inProcessTransports = new WeakMap<FastifyInstance, IssuerTransport>();

/**
 * The origin the relying party gives the test provider's paths (`http://127.0.0.1`, its issuer
 * identifier's). openid-client needs absolute endpoint and redirect URLs; the in-process transport
 * turns them back into paths on the gateway, where the provider and the registered redirect URIs live.
 */
export const IN_PROCESS_ORIGIN = new URL(TEST_IDP_ISSUER).origin;
const pathOnGateway = (url: string) => (url.startsWith(`${IN_PROCESS_ORIGIN}/`) ? url.slice(IN_PROCESS_ORIGIN.length) : url);
/** Discovery names the endpoints as paths (ADR 0015); as absolute URLs on the in-process origin for openid-client. */
const ENDPOINT_FIELDS = /(_endpoint|_uri)$/;

/** `forLibrary`: absolute endpoint URLs in discovery for openid-client; the shorthands answer the document as served. */
function inProcessFetch(gateway: FastifyInstance, forLibrary: boolean): IssuerTransport['fetch'] {
  return async (url, init) => {
    const path = pathOnGateway(url);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    let payload: string | undefined;
    if (init.body instanceof URLSearchParams || typeof init.body === 'string') {
      const form = new URLSearchParams(init.body);
      const redirectUri = form.get('redirect_uri');
      if (redirectUri !== null) form.set('redirect_uri', pathOnGateway(redirectUri));
      payload = form.toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    const method = init.method === 'POST' ? 'POST' : 'GET';
    const response = await gateway.inject({ method, url: path, headers, ...(payload === undefined ? {} : { payload }) });
    let body = response.body;
    if (forLibrary && path.endsWith('/.well-known/openid-configuration') && response.statusCode === 200) {
      const metadata = JSON.parse(body) as Record<string, unknown>;
      for (const [name, value] of Object.entries(metadata)) {
        if (ENDPOINT_FIELDS.test(name) && typeof value === 'string' && value.startsWith('/')) metadata[name] = `${IN_PROCESS_ORIGIN}${value}`;
      }
      body = JSON.stringify(metadata);
    }
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined && name !== 'content-length' && name !== 'set-cookie') answerHeaders.set(name, String(value));
    }
    return new Response(response.statusCode === 204 ? null : body, { status: response.statusCode, headers: answerHeaders });
  };
}

async function remoteFetch(url: string, init: RequestInit): Promise<Response> {
  // Redirects are never followed: an issuer answers its own metadata, keys and tokens.
  return fetch(url, { ...init, redirect: 'error', signal: init.signal ?? AbortSignal.timeout(REMOTE_TIMEOUT_MS) });
}

const remoteTransport = withShorthands(remoteFetch);

function withShorthands(fetchFn: IssuerTransport['fetch']): IssuerTransport {
  const call = async (url: string, init: RequestInit) => {
    try {
      const response = await fetchFn(url, { ...init, headers: { accept: 'application/json', ...(init.headers as Record<string, string> | undefined) } });
      return { status: response.status, body: parseJson(await response.text()) };
    } catch {
      return { status: 0, body: null };
    }
  };
  return {
    fetch: fetchFn,
    getJson: (url) => call(url, { method: 'GET' }),
    postForm: (url, fields) =>
      call(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
