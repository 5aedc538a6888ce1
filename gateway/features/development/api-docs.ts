import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../../../schemas/api/openapi';
import { gatewayRoutes } from '../../../schemas/api/routes';
import { cardCallRoutes } from '../../cards/card-call-paths';
import type { Fixtures } from '../../site-files/load-fixtures';
import { escapeHtml } from '../../http/html-text';
import { fromContract } from '../../http/route-contract';

/**
 * The route contract (schemas/api/routes.ts) as an OpenAPI 3.1 document at `docs/openapi.json`, and
 * as a plain page at `docs` listing every route with its access and summary. Development only (ADR
 * 0018): production publishes no map of its routes. The page is static HTML, no script, so the CSP
 * of every answer holds.
 */
export async function apiDocsRoutes(app: FastifyInstance, options: { fixtures: Fixtures }): Promise<void> {
  // The card calls at the paths this gateway's site files give, as it registers them (gateway/features/cards/card-calls.ts).
  const routes = gatewayRoutes(cardCallRoutes(options.fixtures));
  const document = buildOpenApiDocument(routes, { title: 'Rewards portal gateway', version: '1' });
  const rows = routes
    .map(
      (route) =>
        `<tr><td>${route.method}</td><td><code>${escapeHtml(route.base === 'api' ? `/api${route.url}` : route.url)}</code></td><td>${route.access}</td><td>${route.availability}</td><td>${escapeHtml(route.summary)}</td></tr>`,
    )
    .join('\n');
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Gateway API</title></head>
<body><h1>Gateway API</h1>
<p>Every route also answers under <code>/gateway/api</code> where it answers under <code>/api</code>. The OpenAPI 3.1 document: <a href="docs/openapi.json">docs/openapi.json</a>. Every refusal is <code>{ error, message, fields? }</code>.</p>
<table><thead><tr><th>method</th><th>URL</th><th>access</th><th>availability</th><th>summary</th></tr></thead>
<tbody>
${rows}
</tbody></table></body></html>
`;

  app.route({ ...fromContract('GET /docs/openapi.json'), handler: async () => document });
  app.route({ ...fromContract('GET /docs'), handler: async (_request, reply) => reply.type('text/html; charset=utf-8').send(page) });
}
