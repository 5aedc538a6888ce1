import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { testSamlIdpSites } from '../../../gateway/sso/saml-sites';
import { readAuthnRequest, type ReadRequest } from '../../../gateway/sso/test-saml-idp';
import { realFixtures } from './test-gateway';

/**
 * A browser's SAML sign-in against an injected gateway (docs/decisions/0028-sso-saml.md): the start, which answers the
 * AuthnRequest and sets the browser's binding cookie ("Login CSRF"), and the identity provider's post of a Response to
 * the site's assertion consumer service with that cookie, as a browser sends it back.
 */
export const SAML_BINDING_COOKIE = 'gmap_saml_binding';

/** `name=value` of each cookie `answer` sets, joined as a Cookie header sends them. */
export function cookieHeaderOf(answer: LightMyRequestResponse, only?: string): string {
  return [answer.headers['set-cookie'] ?? []]
    .flat()
    .map((line) => line.split(';')[0]!)
    .filter((pair) => only === undefined || pair.startsWith(`${only}=`))
    .join('; ');
}

export interface SamlStart {
  answer: LightMyRequestResponse;
  /** The AuthnRequest as the test identity provider reads it. */
  request: ReadRequest;
  /** `gmap_saml_binding=…`, for the post. */
  binding: string;
}

/** GET the start at `siteId` (302 to the identity provider), with `query` and the browser's `cookie`. */
export async function startSaml(app: FastifyInstance, siteId: string, options: { query?: Record<string, string>; cookie?: string } = {}): Promise<SamlStart> {
  const query = new URLSearchParams({ siteId, ...options.query });
  const answer = await app.inject({ method: 'GET', url: `/api/user-auth/saml/authorize?${query.toString()}`, headers: { cookie: options.cookie ?? '' } });
  expect(answer.statusCode, answer.body).toBe(302);
  const samlRequest = new URL(String(answer.headers.location), 'http://portal.test').searchParams.get('SAMLRequest')!;
  return { answer, request: await readAuthnRequest(samlRequest, testSamlIdpSites(await realFixtures())), binding: cookieHeaderOf(answer, SAML_BINDING_COOKIE) };
}

/** POST `samlResponse` to `siteId`'s assertion consumer service as the provider's page does, with `headers` (a cookie). */
export function postSaml(app: FastifyInstance, siteId: string, samlResponse: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: `/api/user-auth/saml/acs/${siteId}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '' }).toString(),
  });
}
