import type { FastifyInstance } from 'fastify';
import { FORM_NAMES, isFormName } from '../../../schemas/forms/form-names';
import type { Fixtures } from '../../site-files/load-fixtures';
import { assertValidPayload } from '../../forms/validate-payload';
import { HttpError } from '../../http/errors';
import { DEFAULT_LOCALE } from '../../locale';
import { fromContract } from '../../http/route-contract';

/**
 * `POST forms/{siteId}/{form}/validate?locale=`: a dry run of the gateway's own payload check
 * (ADR 0006), writing nothing. Not a call of SPEC §7: it lets a client, the site gallery and
 * the tests ask the server's verdict on a payload without the browser in the way.
 */
export async function formRoutes(app: FastifyInstance, options: { fixtures: Fixtures }): Promise<void> {
  const { fixtures } = options;
  app.route<{ Params: { siteId: string; form: string }; Querystring: { locale?: string } }>({
    ...fromContract('POST /forms/:siteId/:form/validate'),
    handler: async (request) => {
      const { siteId, form } = request.params;
      if (!isFormName(form)) {
        throw new HttpError(404, 'UNKNOWN_FORM', `There is no form with that name; forms: ${FORM_NAMES.join(', ')}.`);
      }
      assertValidPayload(fixtures, { siteId, locale: request.query.locale ?? DEFAULT_LOCALE, form }, request.body, new Date());
      return { valid: true };
    },
  });
}
