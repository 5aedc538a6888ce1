import { describe, expect, it } from 'vitest';
import type { RouteContract } from '../../../schemas/api/contract';
import { buildOpenApiDocument, openApiPath } from '../../../schemas/api/openapi';
import { SITE_ID_PARAMS, TOTP_CODE_BODY } from '../../../schemas/api/request-schemas';
import { API_ROUTES } from '../../../schemas/api/routes';

const INFO = { title: 'test', version: '1' };

const route = (overrides: Partial<RouteContract>): RouteContract => ({
  method: 'GET',
  base: 'api',
  url: '/health',
  access: 'public',
  availability: 'always',
  summary: 'Health.',
  response: { status: 200, description: 'ok' },
  ...overrides,
});

type Operation = { parameters?: unknown[]; requestBody?: unknown; responses: Record<string, unknown>; 'x-access': string; 'x-availability': string };
const pathsOf = (routes: RouteContract[]) => buildOpenApiDocument(routes, INFO).paths as Record<string, Record<string, unknown>>;

describe('the route contract as OpenAPI 3.1 (schemas/api/openapi.ts)', () => {
  it('writes Fastify parameters and wildcards as OpenAPI path templates', () => {
    expect(openApiPath('/user-attribute/user/:siteId')).toBe('/user-attribute/user/{siteId}');
    expect(openApiPath('/cmsapi/content.data.json/vpp/:siteId/*')).toBe('/cmsapi/content.data.json/vpp/{siteId}/{wildcard}');
    expect(openApiPath('/:locale/account/configurations/:file')).toBe('/{locale}/account/configurations/{file}');
  });

  it('serves an API route under both bases and a page-root route at the root, keeping the Fastify URL', () => {
    const paths = pathsOf([
      route({ url: '/my-cashback/:siteId', request: { params: SITE_ID_PARAMS } }),
      route({ base: 'root', url: '/offers/api/categories' }),
    ]);
    expect(paths['/my-cashback/{siteId}']).toMatchObject({ 'x-fastify-url': '/my-cashback/:siteId', servers: [{ url: '/api' }, { url: '/gateway/api' }] });
    expect(paths['/offers/api/categories']).toMatchObject({ servers: [{ url: '/' }] });
    const operation = paths['/my-cashback/{siteId}']?.get as Operation;
    expect(operation.parameters).toEqual([{ name: 'siteId', in: 'path', required: true, schema: SITE_ID_PARAMS.properties.siteId }]);
  });

  it('gives each operation its access, availability, JSON body and the one error shape', () => {
    const paths = pathsOf([
      route({ method: 'POST', url: '/user-mgmt/user/mfa/totp/enroll', access: 'cardholder', availability: 'development', request: { body: TOTP_CODE_BODY } }),
    ]);
    const operation = paths['/user-mgmt/user/mfa/totp/enroll']?.post as Operation;
    expect(operation['x-access']).toBe('cardholder');
    expect(operation['x-availability']).toBe('development');
    expect(operation.requestBody).toEqual({ required: true, content: { 'application/json': { schema: TOTP_CODE_BODY } } });
    expect(operation.responses.default).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } });
  });

  it('refuses a contract that lists a route twice', () => {
    expect(() => buildOpenApiDocument([route({}), route({})], INFO)).toThrow(/GET \/health is in the contract twice/);
  });

  it('builds the whole contract, with a unique operationId per operation', () => {
    const document = buildOpenApiDocument(API_ROUTES, INFO);
    const operations = Object.values(document.paths as Record<string, Record<string, unknown>>).flatMap((item) =>
      ['get', 'post'].flatMap((method) => (item[method] === undefined ? [] : [(item[method] as { operationId: string }).operationId])),
    );
    expect(operations).toHaveLength(API_ROUTES.length);
    expect(new Set(operations).size).toBe(operations.length);
  });
});
