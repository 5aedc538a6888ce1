import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { saveChangedAttributes, saveWholeSiteObject } from '../../../gateway/profile/site-attributes';
import { ANA_PASSWORD, register } from '../support/account-requests';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { TestBrowser } from '../support/test-browser';
import { buildTestGateway, realFixtures, withXsrf } from '../support/test-gateway';

// SPEC §5: the gateway names every bad field of a payload at once with its machine code, and
// upper-cases a field the site asks for (postal_code_uppercase) with the browser's own code before
// it validates and stores it.

describe('POST /api/forms/{siteId}/registration/validate names every problem at once', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestGateway();
  });
  afterAll(async () => {
    await app.close();
  });

  it('a bad phone, a bad national id and the empty required fields are each named with their code', async () => {
    const response = await app.inject({
      method: 'POST',
      headers: withXsrf(),
      url: '/api/forms/firstbank/registration/validate?locale=en_us',
      payload: { phone: '123', nationalId: '000-00-0000', email: '' },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ error: string; fields: Record<string, string> }>();
    expect(body.error).toBe('VALIDATION_FAILED');
    expect(body.fields).toMatchObject({
      first_name: 'required',
      last_name: 'required',
      email: 'required',
      password: 'required',
      confirm_password: 'required',
      dob: 'required',
      phone: 'invalid',
      nationalId: 'invalid',
    });
  });

  it("validates the upper-cased value: harbourbank's upper-case-only national id accepts one typed in lower case", async () => {
    // harbourbank: national_id_regexp ^[A-Z]{1,2}[0-9]{6}\([0-9A]\)$ with national_id_uppercase; the id is ProfileOptional, so it is in the profile's schema.
    const validate = (nationalId: string) =>
      app.inject({ method: 'POST', headers: withXsrf(), url: '/api/forms/harbourbank/profile-view/validate?locale=zh_hk', payload: { nationalId } });
    expect((await validate('a123456(7)')).json()).toEqual({ valid: true });
    expect((await validate('a123456(b)')).json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { nationalId: 'invalid' } });
  });
});

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    browser = await new TestBrowser(gateway.app).open();
  });
  afterEach(() => gateway.dispose());

  it('northbank: a registration with a lower-case postal code is stored upper-cased, as the form showed it', async () => {
    const user = {
      first_name: 'Sophie',
      last_name: 'Tremblay',
      email: 'sophie@example.com',
      password: ANA_PASSWORD,
      confirm_password: ANA_PASSWORD,
      dob: '1990-04-12',
      phone: '6135550123',
      state: 'ON',
      address: { zipcode: 'k1a 0b1' },
    };
    const response = await register(browser, { siteId: 'northbank', locale: 'en_us', user, cards: [] });
    expect(response.statusCode).toBe(202);
    const stored = await gateway.test.db.query<{ attributes: { address?: { zipcode?: string } } }>(
      'select s.attributes from user_sites s join users u on u.id = s.user_id where u.email = $1',
      ['sophie@example.com'],
    );
    expect(stored.rows[0]?.attributes.address?.zipcode).toBe('K1A 0B1');
  });

  it('a profile save with a lower-case postal code is stored upper-cased, whole object or changed keys alike', async () => {
    // northbank upper-cases its postal code but does not let profiles be updated (pan_capture.updatable "false"): the same site, updatable.
    const fixtures = await realFixtures();
    const northbank = structuredClone(fixtures.sites.get('northbank')!);
    northbank.config.siteFeatureConfigurations.find((feature) => feature.name === 'pan_capture')!.featureConfig.updatable = 'true';
    const context = { fixtures: { ...fixtures, sites: new Map([...fixtures.sites, ['northbank', northbank]]) }, siteId: 'northbank', today: new Date() };
    const inserted = await gateway.test.db.query<{ id: string }>(
      `insert into users (email, password_hash, first_name, last_name, dob, title, status, roles)
       values ('sophie@example.com', 'not-a-real-hash', 'Sophie', 'Tremblay', '1990-04-12', 'Ms', 'ACTIVE', '{ROLE_CARDHOLDER}') returning id`,
    );
    const userId = inserted.rows[0]!.id;
    const attributes = { phone: '6135550123', state: 'ON', address: { zipcode: 'K1A0B1' } };
    await gateway.test.db.query('insert into user_sites (user_id, site_id, attributes) values ($1, $2, $3)', [userId, 'northbank', JSON.stringify(attributes)]);

    const changed = await saveChangedAttributes(gateway.test.db, { ...context, userId }, { address: { zipcode: 'h2x 1y4' } }, undefined);
    expect(changed.attributes.address).toEqual({ zipcode: 'H2X 1Y4' });
    const whole = await saveWholeSiteObject(gateway.test.db, { ...context, userId }, { ...attributes, address: { zipcode: 'v6b 4y8' } }, changed.version);
    expect(whole.attributes.address).toEqual({ zipcode: 'V6B 4Y8' });
    const stored = await gateway.test.db.query<{ attributes: { address?: { zipcode?: string } } }>('select attributes from user_sites where user_id = $1', [
      userId,
    ]);
    expect(stored.rows[0]?.attributes.address?.zipcode).toBe('V6B 4Y8');
  });
});
