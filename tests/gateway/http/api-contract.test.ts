import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildOpenApiDocument, serverUrlsOf } from '../../../schemas/api/openapi';
import type { RouteContract } from '../../../schemas/api/contract';
import { contractEntry, gatewayRoutes, OPERATOR_ROUTES } from '../../../schemas/api/routes';
import { fromContract } from '../../../gateway/http/route-contract';
import { cardCallRoutes } from '../../../gateway/cards/card-call-paths';
import type { Fixtures } from '../../../gateway/site-files/load-fixtures';
import { buildGateway, type GatewayOptions } from '../../../gateway/server';
import { realFixtures, stubDatabase } from '../support/test-gateway';
import { fixturesWithAltbank } from '../cards/card-test-support';

/**
 * One API contract (schemas/api/routes.ts): the routes the running gateway registers (Fastify's onRoute,
 * never a hand list) are exactly the contract's, method and URL, each taking the contract's access and the very
 * request and answer schemas it holds (`fromContract`, gateway/http/route-contract.ts); and its OpenAPI document is served in development mode only (ADR 0018).
 * HEAD routes are left out: Fastify adds one beside every GET by itself.
 */

interface RegisteredRoute {
  method: string;
  url: string;
  /** Read after every onRoute hook has run: the gateway's own hook gives a plugin's routes their access (registerPluginWithAccess). */
  options: RouteOptions;
}

const registered = vi.hoisted(() => [] as RegisteredRoute[]);

vi.mock('fastify', async (importOriginal) => {
  const original = await importOriginal<typeof import('fastify')>();
  const withRouteList = ((options: Parameters<typeof original.default>[0]) => {
    const app = original.default(options);
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) registered.push({ method, url: route.url ?? '', options: route });
    });
    return app;
  }) as typeof original.default;
  return { ...original, default: withRouteList };
});

const DOCUMENT_INFO = { title: 'Rewards portal gateway', version: '1' };

/** `METHOD url` of every operation of an OpenAPI document, under each of its path item's servers. */
function documentedRoutes(document: Record<string, unknown>): Set<string> {
  const keys = new Set<string>();
  for (const item of Object.values(document.paths as Record<string, Record<string, unknown>>)) {
    const servers = (item.servers as { url: string }[]).map(({ url }) => (url === '/' ? '' : url));
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      if (item[method] === undefined) continue;
      for (const server of servers) keys.add(`${method.toUpperCase()} ${server}${String(item['x-fastify-url'])}`);
    }
  }
  return keys;
}

/** What one set has that the other lacks, both ways, so a failure names the route to add or remove. */
function differences(registeredKeys: Set<string>, documentedKeys: Set<string>): { withoutContract: string[]; withoutRoute: string[] } {
  return {
    withoutContract: [...registeredKeys].filter((key) => !documentedKeys.has(key)).sort(),
    withoutRoute: [...documentedKeys].filter((key) => !registeredKeys.has(key)).sort(),
  };
}

async function routesOf(options: Partial<GatewayOptions>, fixtures?: Fixtures): Promise<RegisteredRoute[]> {
  registered.length = 0;
  const app = await buildGateway({ db: stubDatabase, fixtures: fixtures ?? (await realFixtures()), ...options });
  await app.ready();
  await app.close();
  return registered.filter((route) => route.method !== 'HEAD');
}

const keysOf = (routes: readonly RegisteredRoute[]) => new Set(routes.map((route) => `${route.method} ${route.url}`));

/** Every `METHOD url` a contract entry stands for (one per base). */
function contractKeys(route: RouteContract): string[] {
  return serverUrlsOf(route).map((server) => `${route.method} ${server === '/' ? '' : server}${route.url}`);
}

/** The schema a route serialises its answers of this status with (gateway/http/answer-schemas.ts). */
const answerSchemaOf = (schema: NonNullable<RouteOptions['schema']>, status: number) => (schema.response as Record<number, unknown> | undefined)?.[status];

/** The contract of a gateway on these site files: the fixed routes and the card calls at the sites' paths. */
const contractOf = (fixtures: Fixtures) => gatewayRoutes(cardCallRoutes(fixtures));

describe('the route contract and the registered routes (schemas/api/routes.ts)', () => {
  let distDir: string;
  let contract: RouteContract[];
  beforeAll(async () => {
    contract = contractOf(await realFixtures());
    distDir = await mkdtemp(join(tmpdir(), 'gateway-contract-dist-'));
    await writeFile(join(distDir, 'index.html'), '<!doctype html><html><body></body></html>');
  });
  afterAll(() => rm(distDir, { recursive: true, force: true }));

  it('development with every option on registers exactly the routes of the OpenAPI document', async () => {
    const routes = await routesOf({ testMode: true, siteGallery: true, distDir, mode: 'development' });
    const document = buildOpenApiDocument(contract, DOCUMENT_INFO);
    expect(routes.length).toBeGreaterThan(100);
    expect(differences(keysOf(routes), documentedRoutes(document))).toEqual({ withoutContract: [], withoutRoute: [] });
  });

  it('a new site whose pan_capture names other card URLs is served and documented at them, with no code change (DESIGN "Adding a site = adding files")', async () => {
    const fixtures = await fixturesWithAltbank();
    const routes = await routesOf({ testMode: true, siteGallery: true, distDir, mode: 'development' }, fixtures);
    const document = buildOpenApiDocument(contractOf(fixtures), DOCUMENT_INFO);
    expect(documentedRoutes(document)).toContain('POST /api/cards/v2/assets/:id/default');
    expect(differences(keysOf(routes), documentedRoutes(document))).toEqual({ withoutContract: [], withoutRoute: [] });
  });

  it('README "Metrics": with METRICS_TOKEN the operators\' routes join at their declared access, and stay out of the OpenAPI document', async () => {
    const routes = await routesOf({ mode: 'production', metricsToken: 'metrics-token-0123456789abcdef0123456789' });
    const always = contract.filter((route) => route.availability === 'always');
    expect(differences(keysOf(routes), new Set([...always, ...OPERATOR_ROUTES].flatMap(contractKeys)))).toEqual({ withoutContract: [], withoutRoute: [] });
    for (const operatorRoute of OPERATOR_ROUTES) {
      const registeredRoute = routes.find((route) => route.method === operatorRoute.method && route.url === operatorRoute.url);
      expect(registeredRoute?.options.config?.access).toBe('operator');
      expect(operatorRoute.availability).toBe('metrics-token');
    }
    const documented = documentedRoutes(buildOpenApiDocument(contract, DOCUMENT_INFO));
    expect(OPERATOR_ROUTES.flatMap(contractKeys).filter((key) => documented.has(key))).toEqual([]);
  });

  it('production registers exactly the contract routes available always', async () => {
    const routes = await routesOf({ mode: 'production' });
    const always = contract.filter((route) => route.availability === 'always');
    expect(differences(keysOf(routes), new Set(always.flatMap(contractKeys)))).toEqual({ withoutContract: [], withoutRoute: [] });
  });

  it('each route takes the access, request schemas and answer schema of its contract entry (fromContract), the same objects: no route writes its own', async () => {
    const routes = await routesOf({ testMode: true, siteGallery: true, distDir, mode: 'development' });
    const byKey = new Map(routes.map((route) => [`${route.method} ${route.url}`, route]));
    const mismatches = contract.flatMap((contract) =>
      contractKeys(contract).flatMap((key) => {
        const route = byKey.get(key);
        const schema = route?.options.schema ?? {};
        const access = route?.options.config?.access;
        const problems = [
          access === contract.access ? null : `access ${String(access)}, contract ${contract.access}`,
          schema.body === contract.request?.body ? null : 'body schema',
          schema.params === contract.request?.params ? null : 'params schema',
          schema.querystring === contract.request?.querystring ? null : 'querystring schema',
          answerSchemaOf(schema, contract.response.status) === (contract.response.mediaType === undefined ? contract.response.schema : undefined)
            ? null
            : 'answer schema',
        ].filter((problem) => problem !== null);
        return problems.length === 0 ? [] : [`${key}: ${problems.join(', ')}`];
      }),
    );
    expect(mismatches).toEqual([]);
  });

  it('a route names its entry by METHOD and URL; a name with no entry stops the gateway at start', () => {
    const entry = contractEntry('POST /user-mgmt/user/change-password');
    expect(fromContract(entry, { freshProof: true })).toEqual({
      method: 'POST',
      url: '/user-mgmt/user/change-password',
      config: { freshProof: true, access: 'cardholder' },
      schema: { body: entry.request?.body, response: { 200: entry.response.schema } },
    });
    expect(fromContract('POST /user-mgmt/user/change-password')).toEqual(fromContract(entry));
    expect(() => fromContract('POST /user-mgmt/user/no-such-route')).toThrow('POST /user-mgmt/user/no-such-route: no entry in the route contract');
  });

  it('ADR 0009 "Activation": activate-token documents the password chosen at registration beside the token; only the token is required by the schema, so the old `{ token }` reaches the route and its named 400 PASSWORD_REQUIRED', async () => {
    const document = buildOpenApiDocument(contract, DOCUMENT_INFO) as { paths: Record<string, { post?: Record<string, unknown> }> };
    const operation = Object.values(document.paths).find((item) => item.post?.operationId === 'postUserMgmtUserActivateToken')?.post;
    const body = (operation?.requestBody as { content: Record<string, { schema: Record<string, unknown> }> }).content['application/json']!.schema;
    expect(Object.keys(body.properties as object)).toEqual(['token', 'password']);
    expect(body.required).toEqual(['token']);
    expect(String(operation?.summary)).toContain('PASSWORD_REQUIRED');
    expect(String(operation?.summary)).toContain('PASSWORD_INCORRECT');
  });

  it('the comparison names a route added without a contract entry, and an entry whose route is gone', async () => {
    const routes = await routesOf({ testMode: true, siteGallery: true, distDir, mode: 'development' });
    const [dropped, ...kept] = contract;
    const phantom: RouteContract = { ...contract[0]!, url: '/no-such-route' };
    const document = buildOpenApiDocument([...kept, phantom], DOCUMENT_INFO);
    expect(differences(keysOf(routes), documentedRoutes(document))).toEqual({
      withoutContract: contractKeys(dropped!).sort(),
      withoutRoute: contractKeys(phantom).sort(),
    });
  });
});

describe('GET /api/docs (ADR 0018: development only)', () => {
  it('development serves the OpenAPI 3.1 document of the contract and a page listing every route, under both bases', async () => {
    const fixtures = await realFixtures();
    const contract = contractOf(fixtures);
    const app = await buildGateway({ db: stubDatabase, fixtures, mode: 'development' });
    for (const base of ['/api', '/gateway/api']) {
      const document = await app.inject({ method: 'GET', url: `${base}/docs/openapi.json` });
      expect(document.statusCode).toBe(200);
      expect(document.json()).toEqual(buildOpenApiDocument(contract, DOCUMENT_INFO));
      expect(document.json()).toMatchObject({ openapi: '3.1.0' });
      const page = await app.inject({ method: 'GET', url: `${base}/docs` });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('<code>/api/user-attribute/user/assets/:id/remove-asset</code>');
    }
    await app.close();
  });

  it('production serves neither the document nor the page', async () => {
    const app = await buildGateway({ db: stubDatabase, fixtures: await realFixtures(), mode: 'production' });
    for (const url of ['/api/docs/openapi.json', '/api/docs', '/gateway/api/docs/openapi.json', '/gateway/api/docs']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ error: 'NOT_FOUND' });
    }
    await app.close();
  });
});
