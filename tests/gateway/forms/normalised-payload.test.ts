import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ANA_PASSWORD, register } from '../support/account-requests';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { TestBrowser } from '../support/test-browser';
import { buildTestGateway, withXsrf } from '../support/test-gateway';

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
    const body = response.json() as { error: string; fields: Record<string, string> };
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
});
