import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SITE_ID_PATTERN } from '../../../schemas/site-config/fixture-format';
import { featureConfigOf, type SiteConfig } from '../../../schemas/site-config/types';
import { cardLimitOf } from '../../../schemas/cards/card-rules';
import { isCardActive, lookupBinRange } from '../../../schemas/cards/bin-ranges';
import { cardConfigOf } from '../../../schemas/cards/card-config';
import { validateCardNumber } from '../../../schemas/validators/card-number';
import { CVV_EXPECTED_FORMAT } from '../../../schemas/forms/expected-format';
import { validateCvv } from '../../../schemas/validators/cvv';
import type { CARD_VALIDATION_ANSWER } from '../../../schemas/api/response-schemas';
import type { SchemaType } from '../../../schemas/api/schema-type';
import type { AuthServices } from '../../auth/auth-services';
import { requireSessionUser } from '../../auth/session-cookies';
import { cardCallRoutes, type CardCallRoute } from '../../cards/card-call-paths';
import { describeCard, enrolCards } from '../../cards/card-enrolment';
import { enrolledAsset, findOwnAsset, listAssets, removeAsset, setDefaultAsset } from '../../cards/enrolled-assets';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { HttpError } from '../../http/errors';
import { fromContract } from '../../http/route-contract';
import { cardCallContract } from '../../../schemas/api/routes';

const SITE_ID = new RegExp(SITE_ID_PATTERN);

interface PanEntry {
  assetType: 'PAN';
  value: string;
}

export type CardValidationRequest = PanEntry & { cvv?: string };

/** SPEC §3 "Validation response: eligible, productType", as the contract states it. */
export type CardValidationAnswer = SchemaType<typeof CARD_VALIDATION_ANSWER>;

/**
 * One card validation for `site` (SPEC §3, §5; ADR 0001 card settings): the number's shape and, where
 * the site captures it, the security code's; the site's BIN ranges; and the card's active status where
 * the site checks it. Both validation routes answer through it, so neither can skip a check.
 */
export function validateCardForSite(fixtures: Fixtures, site: SiteConfig, body: CardValidationRequest): CardValidationAnswer {
  const config = cardConfigOf(featureConfigOf(site, 'pan_capture'));
  assertCardAndCvvShape(body, config.captureCvv);
  const digits = body.value.replace(/ /g, '');
  const { eligible, productType } = lookupBinRange(fixtures.binRanges, digits, site.siteId);
  if (config.checkActiveStatus && eligible && !isCardActive(fixtures.binRanges, digits, site.siteId)) throw cardNotActive(['value']);
  return { eligible, productType };
}

interface CardRoutesOptions {
  db: Database;
  fixtures: Fixtures;
  auth: AuthServices;
}

/**
 * SPEC §7 asset calls as docs/decisions/0011-cards-api.md fixes them. The lists are at the fixed
 * §7 paths; the validation, enrolment, remove and set-default calls at the paths of the sites'
 * `pan_capture` options (`cards/card-call-paths.ts`). The logic lives in `gateway/cards/`.
 */
export async function cardRoutes(app: FastifyInstance, options: CardRoutesOptions): Promise<void> {
  const { db, fixtures, auth } = options;
  const siteConfigFor = (siteId: string): SiteConfig => fixtures.sites.get(siteId)?.config ?? fixtures.defaultSite.config;
  /** A card call path answers only for the sites that configure it. */
  const assertSiteCalls = (route: CardCallRoute, siteId: string) => {
    if (!route.siteIds.has(siteConfigFor(siteId).siteId)) throw new HttpError(404, 'NOT_FOUND', `Site ${siteId} has no card call at this path.`);
  };

  // The session's site only (ADR 0017): a session of one site never reads another site's cards.
  app.route({
    ...fromContract('GET /user-attribute/user/assets'),
    handler: async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, auth.clock.now());
      const now = auth.clock.now();
      return (await listAssets(db, user.userId, user.siteId)).map((row) => enrolledAsset(row, now));
    },
  });

  app.route<{ Params: { siteId: string } }>({
    ...fromContract('GET /user-attribute/user/assets/:siteId'),
    handler: async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, auth.clock.now());
      const now = auth.clock.now();
      return (await listAssets(db, user.userId, request.params.siteId)).map((row) => enrolledAsset(row, now));
    },
  });

  const routes = cardCallRoutes(fixtures);
  for (const route of routes.filter((candidate) => candidate.call === 'validate')) {
    app.route<{ Querystring: { siteId?: string }; Body: CardValidationRequest }>({
      // Open (public-site-bound): the registration add-pan step checks a card before any account exists (ADR 0011).
      ...fromContract(cardCallContract(route)),
      handler: async (request) => {
        await auth.limits.countCardValidation(request.ip);
        const siteId = siteIdOf(request);
        assertSiteCalls(route, siteId);
        return validateCardForSite(fixtures, siteConfigFor(siteId), request.body);
      },
    });
  }

  for (const route of routes.filter((candidate) => candidate.call === 'enrol')) {
    app.route<{ Body: { siteId: string; userAssetRequest: PanEntry[] } }>({
      ...fromContract(cardCallContract(route)),
      handler: async (request, reply) => {
        const user = await requireSessionUser(db, request, reply, auth.clock.now());
        await auth.limits.assertCardEnrolmentsAllowed(user.userId);
        const { siteId, userAssetRequest } = request.body;
        assertSiteCalls(route, siteId);
        const site = siteConfigFor(siteId);
        const fields = userAssetRequest.map((_entry, index) => `userAssetRequest.${index}.value`);
        const numbers = userAssetRequest.map((entry) => cardDigitsOrNull(entry.value));
        const invalid = fields.filter((_field, index) => numbers[index] === null);
        if (invalid.length > 0) throw invalidCardNumber(invalid);
        const digitsList = numbers.filter((digits) => digits !== null);
        const cards = digitsList.map((digits) => describeCard(digits, site.siteId, fixtures.binRanges, auth.cardFingerprinter));
        // ADR 0001 check_card_active_status, after eligibility (an ineligible card is refused as such by enrolCards).
        if (cardConfigOf(featureConfigOf(site, 'pan_capture')).checkActiveStatus && cards.every((card) => card.eligible)) {
          const inactive = fields.filter((_field, index) => !isCardActive(fixtures.binRanges, digitsList[index] ?? '', site.siteId));
          if (inactive.length > 0) throw cardNotActive(inactive);
        }
        const now = auth.clock.now();
        const limit = cardLimitOf(featureConfigOf(site, 'pan_capture').limit);
        const rows = await enrolCards(db, { userId: user.userId, siteId, limit, fields, cards }, now).catch(async (error: unknown) => {
          if (error instanceof HttpError && error.code === 'CARD_NOT_AVAILABLE') await auth.limits.recordCardNotAvailable(user.userId);
          throw error;
        });
        return reply.code(201).send(rows.map((row) => enrolledAsset(row, now)));
      },
    });
  }

  for (const route of routes.filter((candidate) => candidate.call === 'setDefault')) {
    app.route<{ Params: { id: string }; Body: { isDefaultAsset: true } }>({
      ...fromContract(cardCallContract(route)),
      handler: async (request, reply) => {
        const user = await requireSessionUser(db, request, reply, auth.clock.now());
        const card = await findOwnAsset(db, user.userId, user.siteId, request.params.id);
        assertSiteCalls(route, card.site_id);
        // SPEC §6 "Set-default … depend on a pan-update-allowed flag".
        if (featureConfigOf(siteConfigFor(card.site_id), 'pan_capture').pan_update_allowed === 'false') {
          throw new HttpError(403, 'CARD_UPDATE_NOT_ALLOWED', 'This site does not allow changing the default card.');
        }
        return enrolledAsset(await setDefaultAsset(db, user.userId, card.id), auth.clock.now());
      },
    });
  }

  // The remove call has an empty body (SPEC §7): whatever is sent, of any type, is read within the limit and dropped.
  await app.register(async (removal) => {
    removal.removeAllContentTypeParsers();
    removal.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
    for (const route of routes.filter((candidate) => candidate.call === 'remove')) {
      removal.route<{ Params: { id: string } }>({
        ...fromContract(cardCallContract(route)),
        handler: async (request, reply) => {
          const user = await requireSessionUser(db, request, reply, auth.clock.now());
          const card = await findOwnAsset(db, user.userId, user.siteId, request.params.id);
          assertSiteCalls(route, card.site_id);
          await removeAsset(db, user.userId, card.id);
          return { removed: true };
        },
      });
    }
  });
}

/** ADR 0011 `?siteId=`; SPEC §7 also sends it as X-SITE-ID on every call, which stands in when the query has none. */
function siteIdOf(request: FastifyRequest<{ Querystring: { siteId?: string } }>): string {
  const header = request.headers['x-site-id'];
  const siteId = request.query.siteId ?? (typeof header === 'string' && SITE_ID.test(header) ? header : undefined);
  if (siteId === undefined) throw new HttpError(400, 'VALIDATION_FAILED', 'Name the site: the siteId query parameter is required.', { siteId: 'required' });
  return siteId;
}

/** SPEC §5 card number (16 digits starting with 4, Luhn, optional single spaces between groups): its digits, or null. */
function cardDigitsOrNull(value: string): string | null {
  return validateCardNumber(value) === null ? value.replace(/ /g, '') : null;
}

/**
 * The validation call's number and, where the site captures it, its security code (SPEC §3 `capture_cvv`):
 * one 400 VALIDATION_FAILED naming each bad field. A bad code is `invalid` with the shape it expects (three
 * digits: the expected-format of the form fields, `expectedFormat.cvv`); a code sent to a site that asks
 * none is refused, never silently taken. No message repeats a value.
 */
function assertCardAndCvvShape(body: CardValidationRequest, captureCvv: boolean): void {
  const fields: Record<string, string> = {};
  if (cardDigitsOrNull(body.value) === null) fields.value = 'invalid';
  if (captureCvv) {
    const problem = validateCvv(body.cvv ?? '');
    if (problem !== null) fields.cvv = problem.key;
  } else if (body.cvv !== undefined) fields.cvv = 'notAsked';
  if (Object.keys(fields).length === 0) return;
  const extras = fields.cvv === 'invalid' ? { expectedFormat: { cvv: CVV_EXPECTED_FORMAT } } : undefined;
  throw new HttpError(400, 'VALIDATION_FAILED', `These fields are not valid: ${Object.keys(fields).join(', ')}.`, fields, extras ? { extras } : {});
}

/** ADR 0001 check_card_active_status: the card is known and in the programme, but its issuer has not activated it. */
function cardNotActive(fields: readonly string[]): HttpError {
  return new HttpError(
    400,
    'CARD_NOT_ACTIVE',
    'This card is not active yet. Activate it with your bank, then add it again.',
    Object.fromEntries(fields.map((field) => [field, 'notActive'])),
  );
}

/** The message never repeats the value: it may be a card number. */
function invalidCardNumber(fields: readonly string[]): HttpError {
  return new HttpError(
    400,
    'VALIDATION_FAILED',
    `Not a valid card number: ${fields.join(', ')}.`,
    Object.fromEntries(fields.map((field) => [field, 'invalid'])),
  );
}
