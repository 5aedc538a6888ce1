import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormName } from '../../../schemas/forms/form-names';
import type { JsonSchema } from '../../../schemas/forms/json-schema';
import type { Fixtures } from '../../../gateway/site-files/load-fixtures';
import { formSchemaFor, payloadErrors } from '../../../gateway/forms/validate-payload';
import { GOLDEN_TABLES, GOLDEN_TODAY, type GoldenRow } from '../../schemas/validators/golden-tables';
import { API_BASES, buildTestGateway, realFixtures, withXsrf } from '../support/test-gateway';

// ADR 0006: the gateway refuses a broken value with the field named even when
// the browser is bypassed, and the golden tables of SPEC §5 give the same answers in the gateway.

interface FieldTarget {
  siteId: string;
  locale: string;
  form: FormName;
  path: string[];
}

const withoutEmpty = (options: Record<string, unknown> | undefined): Record<string, unknown> =>
  Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== null && value !== undefined));

/** A real site field whose rule and options are exactly the row's, so the row runs through a real form. */
function findField(fixtures: Fixtures, rule: string, row: GoldenRow): FieldTarget | null {
  const locale = typeof row[1].locale === 'string' ? row[1].locale : 'en_us';
  const wanted = JSON.stringify(withoutEmpty({ ...row[1] }));
  for (const siteId of [...fixtures.sites.keys()].sort()) {
    for (const form of ['registration', 'edit-profile'] as const) {
      const found = searchProperties(formSchemaFor(fixtures, { siteId, locale, form }).schema, [], rule, wanted);
      if (found) return { siteId, locale, form, path: found };
    }
  }
  return null;
}

function searchProperties(schema: JsonSchema, path: string[], rule: string, wanted: string): string[] | null {
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (property.type === 'object') {
      const nested = searchProperties(property, [...path, key], rule, wanted);
      if (nested) return nested;
    }
    const fieldRule = property['x-rule'];
    if (fieldRule?.name === rule && JSON.stringify(withoutEmpty(fieldRule.options)) === wanted) return [...path, key];
  }
  return null;
}

function payloadAt(path: string[], value: string): Record<string, unknown> {
  return path.reduceRight<Record<string, unknown>>((inner, key, index) => (index === path.length - 1 ? { [key]: value } : { [key]: inner }), {});
}

describe('the golden tables of SPEC §5 through the gateway', async () => {
  const fixtures = await realFixtures();
  const today = new Date(Date.UTC(GOLDEN_TODAY.year, GOLDEN_TODAY.month - 1, GOLDEN_TODAY.day));
  const runnable = GOLDEN_TABLES.flatMap((table) =>
    table.rows.flatMap((row) => {
      const target = findField(fixtures, table.rule, row);
      return target ? [[`${table.title}: ${JSON.stringify(row[0])} on ${target.siteId}.${target.path.join('.')}`, target, row] as const] : [];
    }),
  );

  it('finds a real site field for most rows (the rest use options no fixture has)', () => {
    const total = GOLDEN_TABLES.reduce((sum, table) => sum + table.rows.length, 0);
    expect(runnable.length).toBeGreaterThan(total / 2);
  });

  it.each(runnable)('%s', (_name, target, row) => {
    const fields = payloadErrors(fixtures, target, payloadAt(target.path, row[0]), today);
    expect(fields[target.path.join('.')]).toBe(row[2]?.key);
  });
});

describe.each(API_BASES)('POST %s/forms/{siteId}/{form}/validate', (base) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestGateway();
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses a broken registration with every field named and its SPEC §5 key', async () => {
    const response = await app.inject({
      method: 'POST',
      headers: withXsrf(),
      url: `${base}/forms/bancosol/registration/validate?locale=pt_br`,
      payload: { first_name: 'Ana', last_name: '<b>x</b>', email: 'not-an-email', nationalId: '111.111.111-11', phone: '(11) 88765-4321' },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ error: string; message: string; fields: Record<string, string> }>();
    expect(body.error).toBe('VALIDATION_FAILED');
    expect(body.fields).toMatchObject({ last_name: 'error', email: 'error', nationalId: 'invalid', phone: 'invalid', password: 'required' });
    expect(body.message).toContain('last_name');
    expect(response.headers['x-cid']).toBeTruthy();
  });

  it('accepts a valid payload', async () => {
    const response = await app.inject({
      method: 'POST',
      headers: withXsrf(),
      url: `${base}/forms/firstbank/recovery/validate`,
      payload: { email: 'ana@example.com' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ valid: true });
  });

  it.each([
    ['a JSON array', [1, 2, 3], { body: 'invalid' }],
    ['a field the form does not have', { email: 'ana@example.com', admin: true }, { admin: 'invalid' }],
    ['a number where text belongs', { email: 42 }, { email: 'invalid' }],
  ])('answers 400 naming the problem for %s', async (_name, payload, fields) => {
    const response = await app.inject({ method: 'POST', headers: withXsrf(), url: `${base}/forms/firstbank/recovery/validate`, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields });
  });

  it('answers 404 JSON for an unknown form, and validates an unknown site against the default', async () => {
    const unknownForm = await app.inject({ method: 'POST', headers: withXsrf(), url: `${base}/forms/firstbank/nope/validate`, payload: {} });
    expect(unknownForm.statusCode).toBe(404);
    expect(unknownForm.json()).toMatchObject({ error: 'UNKNOWN_FORM' });
    const unknownSite = await app.inject({ method: 'POST', headers: withXsrf(), url: `${base}/forms/nosuchsite/recovery/validate`, payload: { email: 'x' } });
    expect(unknownSite.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { email: 'error' } });
  });

  it('answers 400, not 500, for a body that is not JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${base}/forms/firstbank/recovery/validate`,
      headers: withXsrf({ 'content-type': 'application/json' }),
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
  });
});
