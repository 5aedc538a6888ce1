import type { FastifyInstance } from 'fastify';
import { SITE_ID_PATTERN } from '../../../schemas/site-config/fixture-format';
import type { AuthServices } from '../../auth/auth-services';
import { readCookies, SESSION_COOKIE } from '../../auth/session-cookies';
import { findSessionUser } from '../../auth/session-store';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../fixtures/load-fixtures';
import { HttpError } from '../../http/errors';
import { validateCardForSite, type CardValidationAnswer, type CardValidationRequest } from './assets';
import { fromContract } from '../../http/route-contract';

const SITE_ID = new RegExp(SITE_ID_PATTERN);

/**
 * SPEC §7's declared `assets/validation`, docs/decisions/0022-declared-calls.md: checks a card number
 * for a site without enrolling it, by the very check of the sites' own validation path (ADR 0011;
 * validateCardForSite: number, security code where asked, BIN ranges, active status where checked).
 * Open, because registration checks a card before an account exists; a signed-in caller's site is the
 * session's (ADR 0017: a named other site is 403 SITE_MISMATCH), else the `siteId` query or X-SITE-ID.
 * Counted with the other card validations per IP: a script trying numbers meets the same 429.
 */
export async function assetsValidationRoutes(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; auth: AuthServices }): Promise<void> {
  const { db, fixtures, auth } = options;
  app.route<{ Querystring: { siteId?: string }; Body: CardValidationRequest }>({
    ...fromContract('POST /assets/validation'),
    handler: async (request): Promise<CardValidationAnswer> => {
      await auth.limits.countCardValidation(request.ip);
      const header = request.headers['x-site-id'];
      const named = request.query.siteId ?? (typeof header === 'string' && SITE_ID.test(header) ? header : undefined);
      const token = readCookies(request).get(SESSION_COOKIE);
      const session = token ? await findSessionUser(db, token, auth.clock.now()) : null;
      if (session && named !== undefined && named !== session.siteId)
        throw new HttpError(403, 'SITE_MISMATCH', 'This session belongs to another site; sign in on this site.');
      const siteId = session?.siteId ?? named;
      if (siteId === undefined) throw new HttpError(400, 'VALIDATION_FAILED', 'Name the site: the siteId query parameter is required.', { siteId: 'required' });
      const site = fixtures.sites.get(siteId);
      if (!site) throw new HttpError(400, 'VALIDATION_FAILED', 'Invalid request: siteId names no site.', { siteId: 'invalid' });
      return validateCardForSite(fixtures, site.config, request.body);
    },
  });
}
