import type { FastifyInstance } from 'fastify';
import { lookupBinRange } from '../../schemas/cards/bin-ranges';
import { SITE_ID_PATTERN } from '../../schemas/site-config/fixture-format';
import { validateCardNumber } from '../../schemas/validators/card-number';
import type { AuthServices } from '../auth/auth-services';
import { readCookies, SESSION_COOKIE } from '../auth/session-cookies';
import { findSessionUser } from '../auth/session-store';
import type { Database } from '../db/database';
import type { Fixtures } from '../fixtures/load-fixtures';
import { HttpError } from '../http/errors';
import { SITE_ID_PARAMS } from './site-id-params';

const SITE_ID = new RegExp(SITE_ID_PATTERN);

/** docs/decisions/0022-declared-calls.md: SPEC §3 "Validation response: eligible, productType". */
export interface CardValidationAnswer {
  eligible: boolean;
  productType: string | null;
}

/**
 * SPEC §7's declared `assets/validation`, docs/decisions/0022-declared-calls.md: checks a card number
 * for a site without enrolling it, as the sites' own validation path does (ADR 0011): SPEC §5's rule
 * (16 digits starting with 4, Luhn, single spaces between groups of four), then the site's BIN ranges.
 * Open, because registration checks a card before an account exists; a signed-in caller's site is the
 * session's (ADR 0017: a named other site is 403 SITE_MISMATCH), else the `siteId` query or X-SITE-ID.
 * Counted with the other card validations per IP: a script trying numbers meets the same 429.
 */
export async function assetsValidationRoutes(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; auth: AuthServices }): Promise<void> {
  const { db, fixtures, auth } = options;
  app.post<{ Querystring: { siteId?: string }; Body: { assetType: 'PAN'; value: string } }>(
    '/assets/validation',
    {
      config: { access: 'public' },
      schema: {
        querystring: SITE_ID_PARAMS,
        body: {
          type: 'object',
          required: ['assetType', 'value'],
          propertyNames: { enum: ['assetType', 'value'] },
          // A card number with spaces is 19 characters; anything much longer is not one.
          properties: { assetType: { const: 'PAN' }, value: { type: 'string', maxLength: 32 } },
        },
      },
    },
    async (request): Promise<CardValidationAnswer> => {
      await auth.limits.countCardValidation(request.ip);
      const header = request.headers['x-site-id'];
      const named = request.query.siteId ?? (typeof header === 'string' && SITE_ID.test(header) ? header : undefined);
      const token = readCookies(request).get(SESSION_COOKIE);
      const session = token ? await findSessionUser(db, token, auth.clock.now()) : null;
      if (session && named !== undefined && named !== session.siteId) throw new HttpError(403, 'SITE_MISMATCH', 'This session belongs to another site; sign in on this site.');
      const siteId = session?.siteId ?? named;
      if (siteId === undefined) throw new HttpError(400, 'VALIDATION_FAILED', 'Name the site: the siteId query parameter is required.', { siteId: 'required' });
      if (!fixtures.sites.has(siteId)) throw new HttpError(400, 'VALIDATION_FAILED', 'Invalid request: siteId names no site.', { siteId: 'invalid' });
      // The message never repeats the value: it may be a card number.
      if (validateCardNumber(request.body.value) !== null) throw new HttpError(400, 'VALIDATION_FAILED', 'Not a valid card number: value.', { value: 'invalid' });
      const { eligible, productType } = lookupBinRange(fixtures.binRanges, request.body.value.replace(/ /g, ''), siteId);
      return { eligible, productType };
    },
  );
}
