/**
 * The route contract as an OpenAPI 3.1 document (pure: data in, data out). Each path item carries the
 * bases it is served under as its `servers` (`/api` and `/gateway/api`, or `/` for the page root) and the
 * URL exactly as Fastify registers it as `x-fastify-url`; each operation its access (`x-access`, ADR 0017)
 * and when the gateway has it (`x-availability`, ADR 0018). Every refusal answers the one error shape.
 */
import { API_BASES, type JsonSchema, type RouteContract } from './contract';
import { ENROLLED_ASSET_SCHEMA } from './enrolled-asset';
import { ERROR_BODY_SCHEMA } from './error-body';

const ERROR_REFERENCE = { $ref: '#/components/schemas/ErrorBody' } as const;
/** The name an OpenAPI path gives Fastify's `*` wildcard. */
export const WILDCARD_PARAMETER = 'wildcard';

export interface OpenApiInfo {
  title: string;
  version: string;
}

/** `/user-attribute/user/:siteId` -> `/user-attribute/user/{siteId}`; `/site-theme/*` -> `/site-theme/{wildcard}`. */
export function openApiPath(fastifyUrl: string): string {
  return fastifyUrl.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, `{${WILDCARD_PARAMETER}}`);
}

/** The bases a route is served under, as OpenAPI server URLs. */
export function serverUrlsOf(route: Pick<RouteContract, 'base'>): string[] {
  return route.base === 'api' ? [...API_BASES] : ['/'];
}

export function buildOpenApiDocument(routes: readonly RouteContract[], info: OpenApiInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.url);
    const servers = serverUrlsOf(route).map((url) => ({ url }));
    const item = (paths[path] ??= { 'x-fastify-url': route.url, servers });
    if (item['x-fastify-url'] !== route.url || JSON.stringify(item.servers) !== JSON.stringify(servers)) {
      throw new Error(`${route.url} and ${String(item['x-fastify-url'])} would share the OpenAPI path ${path}`);
    }
    const method = route.method.toLowerCase();
    if (item[method] !== undefined) throw new Error(`${route.method} ${route.url} is in the contract twice`);
    item[method] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: { ...info, description: 'The gateway API of SPEC §7 and the page-root files the gateway serves (schemas/api/routes.ts).' },
    servers: API_BASES.map((url) => ({ url })),
    paths,
    components: { schemas: { ErrorBody: ERROR_BODY_SCHEMA, EnrolledAsset: ENROLLED_ASSET_SCHEMA } },
  };
}

function operationOf(route: RouteContract): Record<string, unknown> {
  const { request = {}, response } = route;
  const parameters = [...pathParameters(route.url, request.params), ...queryParameters(request.querystring)];
  const operation: Record<string, unknown> = {
    operationId: `${route.method.toLowerCase()}${route.base === 'root' ? 'Root' : ''}${openApiPath(route.url).replace(/[^A-Za-z0-9]+(.)?/g, (_match, next: string | undefined) => (next ?? '').toUpperCase())}`,
    summary: route.summary,
    'x-access': route.access,
    'x-availability': route.availability,
  };
  if (parameters.length > 0) operation.parameters = parameters;
  const body = requestBodyOf(request);
  if (body) operation.requestBody = body;
  const success: Record<string, unknown> = { description: response.description };
  if (response.schema || response.mediaType)
    success.content = { [response.mediaType ?? 'application/json']: response.schema ? { schema: response.schema } : {} };
  operation.responses = {
    [String(response.status)]: success,
    default: {
      description: 'Any refusal: the gateway error shape (400 VALIDATION_FAILED names each field).',
      content: { 'application/json': { schema: ERROR_REFERENCE } },
    },
  };
  return operation;
}

function propertiesOf(schema: JsonSchema | undefined): [string, JsonSchema][] {
  return Object.entries((schema?.properties ?? {}) as Record<string, JsonSchema>);
}

function pathParameters(url: string, params: JsonSchema | undefined): Record<string, unknown>[] {
  const declared = new Map(propertiesOf(params));
  const names = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] ?? '');
  const parameters = names.map((name) => ({ name, in: 'path', required: true, schema: declared.get(name) ?? { type: 'string' } }));
  if (url.endsWith('*'))
    parameters.push({ name: WILDCARD_PARAMETER, in: 'path', required: true, schema: { type: 'string', description: 'The rest of the path.' } });
  return parameters;
}

function queryParameters(querystring: JsonSchema | undefined): Record<string, unknown>[] {
  const required = new Set((querystring?.required ?? []) as string[]);
  return propertiesOf(querystring).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema }));
}

function requestBodyOf(request: NonNullable<RouteContract['request']>): Record<string, unknown> | undefined {
  if (request.body) return { required: true, content: { 'application/json': { schema: request.body } } };
  if (request.bodyReading === 'form') return { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } } };
  if (request.bodyReading === 'route-checked') return { required: true, content: { 'application/json': { schema: { type: 'object' } } } };
  return undefined;
}
