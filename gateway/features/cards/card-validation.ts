import type { FastifyInstance } from 'fastify';
import { SITE_ID_PATTERN } from '../../../schemas/site-config/fixture-format';
import type { AuthServices } from '../../auth/auth-services';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { HttpError } from '../../http/errors';
import { validateCardForSite, type CardValidationAnswer, type CardValidationRequest } from './card-calls';
import { fromContract } from '../../http/route-contract';

const SITE_ID = new RegExp(SITE_ID_PATTERN);

/**
 * SPEC §7's declared `assets/validation`, docs/decisions/0022-declared-calls.md: checks a card number
 * for a site without enrolling it, by the very check of the sites' own validation path (ADR 0011;
 * validateCardForSite: number, security code where asked, BIN ranges, active status where checked).
 * Open, because registration checks a card before an account exists (`public-site-bound`: the access hook holds a
 * signed-in caller to the session's site, ADR 0017); the site is the session's, else the `siteId` query or X-SITE-ID.
 * Counted with the other card validations per IP: a script trying numbers meets the same 429.
 */
export async function cardValidationRoutes(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; auth: AuthServices }): Promise<void> {
  const { fixtures, auth } = options;
  app.route<{ Querystring: { siteId?: string }; Body: CardValidationRequest }>({
    ...fromContract('POST /assets/validation'),
    handler: async (request): Promise<CardValidationAnswer> => {
      await auth.limits.countCardValidation(request.ip);
      const header = request.headers['x-site-id'];
      const named = request.query.siteId ?? (typeof header === 'string' && SITE_ID.test(header) ? header : undefined);
      const siteId = request.sessionUser?.siteId ?? named;
      if (siteId === undefined) throw new HttpError(400, 'VALIDATION_FAILED', 'Name the site: the siteId query parameter is required.', { siteId: 'required' });
      const site = fixtures.sites.get(siteId);
      if (!site) throw new HttpError(400, 'VALIDATION_FAILED', 'Invalid request: siteId names no site.', { siteId: 'invalid' });
      return validateCardForSite(fixtures, site.config, request.body);
    },
  });
}
