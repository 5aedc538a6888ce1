import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../gateway/db/database';
import {
  ASSETS,
  eligiblePan,
  expectNoCardNumberAnywhere,
  openCardsGateway,
  PASSWORD,
  type CardsGateway,
  type RecordingBrowser,
} from '../cards/card-test-support';
import { describeEachDatabase } from '../support/database-legs';
import { insertUser } from '../support/test-browser';

/**
 * docs/decisions/0014-concierge.md: a support agent (SPEC §6 CONCIERGE) chooses a card
 * holder, acts for them through the concierge calls of SPEC §7, and every action is audited; a card
 * holder never reaches a concierge call; an agent never changes credentials nor sees a card number.
 */
const SITE = 'firstbank';

/** Every concierge call of ADR 0014 with a body it would accept. */
const CONCIERGE_CALLS: { method: 'GET' | 'POST'; url: string; json?: unknown }[] = [
  { method: 'GET', url: 'user-mgmt/user/concierge/act-for' },
  { method: 'POST', url: 'user-mgmt/user/concierge/act-for', json: { email: 'emily@example.com' } },
  { method: 'POST', url: 'user-mgmt/user/concierge/stop-acting' },
  { method: 'GET', url: 'user-mgmt/user/concierge/audit' },
  { method: 'GET', url: 'user-mgmt/user/find-concierge' },
  { method: 'POST', url: 'user-mgmt/user/concierge/update' },
  { method: 'GET', url: `user-attribute/concierge/user/${SITE}` },
  { method: 'GET', url: `user-attribute/concierge/user/assets/${SITE}` },
  { method: 'POST', url: `user-attribute/concierge/v2/user/${SITE}`, json: { attributes: { marketing_opt_ins: { online: { optin: true } } } } },
  { method: 'POST', url: `user-attribute/concierge/user/attribute/${SITE}`, json: { siteId: SITE, attributes: {}, version: 0 } },
];

interface AuditRow {
  agent_id: string;
  user_id: string;
  site_id: string;
  action: string;
  attribute_keys: string[];
  correlation_id: string;
}

async function auditRows(db: Database): Promise<AuditRow[]> {
  return (await db.query<AuditRow>('select agent_id, user_id, site_id, action, attribute_keys, correlation_id from concierge_audit order by id')).rows;
}

function cookieLine(setCookie: string | string[] | undefined, name: string): string | undefined {
  return ([] as string[]).concat(setCookie ?? []).find((line) => line.startsWith(`${name}=`));
}

describeEachDatabase((leg) => {
  let gateway: CardsGateway;
  let emily: { browser: RecordingBrowser; userId: string };
  let agent: RecordingBrowser;
  let agentId: string;
  let pan: string;

  beforeEach(async () => {
    gateway = await openCardsGateway(leg);
    emily = await gateway.signedIn('emily@example.com', SITE);
    await gateway.test.db.query(`update users set first_name = 'Emily', last_name = 'Carter' where id = $1`, [emily.userId]);
    pan = eligiblePan(42);
    const enrolled = await emily.browser.call({ method: 'POST', url: ASSETS, json: { siteId: SITE, userAssetRequest: [{ assetType: 'PAN', value: pan }] } });
    expect(enrolled.statusCode).toBe(201);
    agentId = await insertUser(gateway.test.db, { email: 'riley@example.com', password: PASSWORD, siteId: SITE, roles: ['ROLE_CONCIERGE'] });
    agent = await gateway.anonymous('198.51.100.9');
    expect((await agent.call({ method: 'POST', url: 'test-support/session', json: { email: 'riley@example.com', siteId: SITE } })).statusCode).toBe(200);
  });
  afterEach(() => gateway.dispose());

  const actFor = (browser: RecordingBrowser, email: string) => browser.call({ method: 'POST', url: 'user-mgmt/user/concierge/act-for', json: { email } });

  describe('who may call', () => {
    it('SPEC §6: a card holder gets 403 NOT_CONCIERGE on every concierge call, and nothing is recorded', async () => {
      for (const call of CONCIERGE_CALLS) {
        const response = await emily.browser.call(call);
        expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
        expect(response.json().error, `${call.method} ${call.url}`).toBe('NOT_CONCIERGE');
      }
      expect(await auditRows(gateway.test.db)).toEqual([]);
    });

    it('answers 401 UNAUTHENTICATED without a session', async () => {
      const anonymous = await gateway.anonymous();
      for (const call of CONCIERGE_CALLS) expect((await anonymous.call(call)).statusCode, `${call.method} ${call.url}`).toBe(401);
    });

    it('ADR 0008: the state-changing concierge calls need the XSRF pair; a refused act-for chooses nobody', async () => {
      const response = await agent.call({
        method: 'POST',
        url: 'user-mgmt/user/concierge/act-for',
        json: { email: 'emily@example.com' },
        withoutXsrfHeader: true,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('XSRF_TOKEN_MISSING');
      expect((await agent.call({ method: 'GET', url: 'user-mgmt/user/concierge/act-for' })).json()).toEqual({ actingFor: null });
      for (const call of CONCIERGE_CALLS.filter((candidate) => candidate.method === 'POST')) {
        expect((await agent.call({ ...call, withoutXsrfHeader: true })).json().error, call.url).toBe('XSRF_TOKEN_MISSING');
      }
    });
  });

  describe('choosing the card holder', () => {
    it('before choosing, the user calls answer 409 NOT_ACTING_FOR_USER', async () => {
      for (const url of ['user-mgmt/user/find-concierge', `user-attribute/concierge/user/${SITE}`, `user-attribute/concierge/user/assets/${SITE}`]) {
        const response = await agent.call({ method: 'GET', url });
        expect(response.statusCode, url).toBe(409);
        expect(response.json().error, url).toBe('NOT_ACTING_FOR_USER');
      }
    });

    it('an unknown address is 404 USER_NOT_FOUND naming email; so are an agent, a holder of another site, and a malformed address is 400', async () => {
      await insertUser(gateway.test.db, { email: 'ana@example.com', password: PASSWORD, siteId: 'bancosol' });
      for (const email of ['nobody@example.com', 'riley@example.com', 'ana@example.com']) {
        const response = await actFor(agent, email);
        expect(response.statusCode, email).toBe(404);
        expect(response.json(), email).toMatchObject({ error: 'USER_NOT_FOUND', fields: { email: 'notFound' } });
      }
      const malformed = await actFor(agent, 'not an address');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { email: 'invalid' } });
      const missing = await agent.call({ method: 'POST', url: 'user-mgmt/user/concierge/act-for', json: {} });
      expect(missing.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { email: 'required' } });
      expect(await auditRows(gateway.test.db)).toEqual([]);
    });

    it('act-for keeps the choice in the session, sets the readable gmap_support_details with display data only, and is audited', async () => {
      const response = await actFor(agent, ' Emily@Example.com ');
      expect(response.statusCode, response.body).toBe(200);
      const actingFor = { primaryUserIdentifier: emily.userId, firstName: 'Emily', lastName: 'Carter' };
      expect(response.json()).toEqual({ actingFor });
      const cookie = cookieLine(response.headers['set-cookie'], 'gmap_support_details');
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).not.toMatch(/HttpOnly/);
      expect(JSON.parse(Buffer.from(agent.cookies.get('gmap_support_details')!, 'base64url').toString())).toEqual(actingFor);
      expect((await agent.call({ method: 'GET', url: 'user-mgmt/user/concierge/act-for' })).json()).toEqual({ actingFor });
      expect(await auditRows(gateway.test.db)).toEqual([
        { agent_id: agentId, user_id: emily.userId, site_id: SITE, action: 'act-for.start', attribute_keys: [], correlation_id: response.headers['x-cid'] },
      ]);
    });

    it('stop-acting expires the cookie, ends the choice and is audited; logout ends it too and expires the cookie', async () => {
      await actFor(agent, 'emily@example.com');
      const stop = await agent.call({ method: 'POST', url: 'user-mgmt/user/concierge/stop-acting' });
      expect(stop.statusCode).toBe(200);
      expect(cookieLine(stop.headers['set-cookie'], 'gmap_support_details')).toMatch(/Expires=Thu, 01 Jan 1970/);
      expect(agent.cookies.has('gmap_support_details')).toBe(false);
      expect((await agent.call({ method: 'GET', url: 'user-mgmt/user/find-concierge' })).statusCode).toBe(409);
      expect((await auditRows(gateway.test.db)).map((row) => row.action)).toEqual(['act-for.start', 'act-for.stop']);

      await actFor(agent, 'emily@example.com');
      const logout = await agent.call({ method: 'POST', url: 'user-auth/tokens/revoke', headers: { 'content-type': 'text/plain' } });
      expect(cookieLine(logout.headers['set-cookie'], 'gmap_support_details')).toMatch(/Expires=Thu, 01 Jan 1970/);
      expect(agent.cookies.has('gmap_support_details')).toBe(false);
      expect((await agent.call({ method: 'GET', url: 'user-mgmt/user/find-concierge' })).statusCode).toBe(401);
    });
  });

  describe('acting for the card holder', () => {
    beforeEach(async () => {
      expect((await actFor(agent, 'emily@example.com')).statusCode).toBe(200);
    });

    it('SPEC §7 find-concierge and concierge user attributes answer the card holder, not the agent', async () => {
      const profile = await agent.call({ method: 'GET', url: 'user-mgmt/user/find-concierge' });
      expect(profile.json()).toMatchObject({ email: 'emily@example.com', firstName: 'Emily', lastName: 'Carter', primaryUserIdentifier: emily.userId });
      await gateway.test.db.query(`update user_sites set attributes = $2 where user_id = $1`, [
        emily.userId,
        JSON.stringify({ phone: '2025550143', password: 'leaked', pan }),
      ]);
      const attributes = await agent.call({ method: 'GET', url: `user-attribute/concierge/user/${SITE}` });
      expect(attributes.json()).toEqual({
        userSites: { [SITE]: { siteId: SITE, attributes: { phone: '2025550143', pan: `XXXXXXXXXXXX${pan.slice(-4)}` }, version: 0 } },
      });
    });

    it('a concierge opt-in save changes the card holder with the same rules and writes one audit row naming the key only', async () => {
      const save = await agent.call({
        method: 'POST',
        url: `user-attribute/concierge/v2/user/${SITE}`,
        json: { attributes: { marketing_opt_ins: { online: { optin: true } } }, baseVersion: 0 },
      });
      expect(save.statusCode).toBe(200);
      expect(save.json()).toMatchObject({ siteId: SITE, version: 1, attributes: { marketing_opt_ins: { online: { optin: true } } } });
      const own = await emily.browser.call({ method: 'GET', url: `user-attribute/user/${SITE}` });
      expect(own.json().userSites[SITE].attributes.marketing_opt_ins).toEqual({ online: { optin: true } });
      const agentsOwn = await gateway.test.db.query<{ attributes: unknown }>('select attributes from user_sites where user_id = $1', [agentId]);
      expect(agentsOwn.rows).toEqual([{ attributes: {} }]);
      expect((await auditRows(gateway.test.db)).at(-1)).toEqual({
        agent_id: agentId,
        user_id: emily.userId,
        site_id: SITE,
        action: 'attributes.save',
        attribute_keys: ['marketing_opt_ins'],
        correlation_id: save.headers['x-cid'],
      });
    });

    it('a refused save (ADR 0010 per-key rules, a stale version) changes nothing and records nothing', async () => {
      const before = await auditRows(gateway.test.db);
      const refused = await agent.call({ method: 'POST', url: `user-attribute/concierge/v2/user/${SITE}`, json: { attributes: { password: 'Secret#12345' } } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { password: 'notEditable' } });
      const stale = await agent.call({
        method: 'POST',
        url: `user-attribute/concierge/user/attribute/${SITE}`,
        json: { siteId: SITE, attributes: {}, version: 7 },
      });
      expect(stale.statusCode).toBe(409);
      expect(await auditRows(gateway.test.db)).toEqual(before);
    });

    it('the whole site object and the profile copy are audited with what changed', async () => {
      const whole = await agent.call({
        method: 'POST',
        url: `user-attribute/concierge/user/attribute/${SITE}`,
        json: { siteId: SITE, attributes: { first_name: 'Emilia', marketing_opt_ins: { email: { optin: true } } }, version: 0 },
      });
      expect(whole.statusCode).toBe(200);
      const update = await agent.call({ method: 'POST', url: 'user-mgmt/user/concierge/update', headers: { 'x-site-id': SITE } });
      expect(update.statusCode).toBe(200);
      expect(update.json()).toMatchObject({ firstName: 'Emilia', email: 'emily@example.com' });
      const rows = (await auditRows(gateway.test.db)).slice(-2).map(({ action, attribute_keys }) => ({ action, attribute_keys }));
      expect(rows).toEqual([
        { action: 'site-object.save', attribute_keys: ['first_name', 'marketing_opt_ins'] },
        { action: 'profile.update', attribute_keys: [] },
      ]);
      const audit = await agent.call({ method: 'GET', url: 'user-mgmt/user/concierge/audit' });
      expect(audit.json().entries.map((entry: { action: string }) => entry.action)).toEqual(['profile.update', 'site-object.save', 'act-for.start']);
    });

    it('the audit trail outlives a deleted account; the agent then acts for nobody', async () => {
      await agent.call({
        method: 'POST',
        url: `user-attribute/concierge/v2/user/${SITE}`,
        json: { attributes: { marketing_opt_ins: { online: { optin: true } } } },
      });
      expect((await emily.browser.call({ method: 'POST', url: 'user-mgmt/user/remove-account', json: { password: PASSWORD } })).statusCode).toBe(200);
      expect((await auditRows(gateway.test.db)).map(({ user_id, action }) => ({ user_id, action }))).toEqual([
        { user_id: emily.userId, action: 'act-for.start' },
        { user_id: emily.userId, action: 'attributes.save' },
      ]);
      expect((await agent.call({ method: 'GET', url: 'user-mgmt/user/find-concierge' })).json().error).toBe('NOT_ACTING_FOR_USER');
    });

    it('an agent acts only on the site they signed in on: 403 SITE_MISMATCH, as every session on another site (ADR 0017)', async () => {
      const response = await agent.call({ method: 'GET', url: 'user-attribute/concierge/user/northbank' });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('SITE_MISMATCH');
    });

    it('an agent is refused password, compromised-password, MFA, account deletion and card changes: 403 CONCIERGE_NOT_ALLOWED, nothing changes', async () => {
      const calls = [
        { url: 'user-mgmt/user/change-password', json: { currentPassword: PASSWORD, password: 'Another#Pass77', confirm_password: 'Another#Pass77' } },
        { url: 'user-mgmt/user/vba/compromised-password', json: { password: 'Another#Pass77', confirm_password: 'Another#Pass77' } },
        { url: 'user-mgmt/user/mfa/totp/setup', json: {} },
        { url: 'user-mgmt/user/mfa/totp/enroll', json: { code: '123456' } },
        { url: 'user-mgmt/user/mfa/totp/unenroll', json: { code: '123456' } },
        { url: 'user-mgmt/user/remove-account', json: {} },
        { url: ASSETS, json: { siteId: SITE, userAssetRequest: [{ assetType: 'PAN', value: eligiblePan(43) }] } },
        { url: `${ASSETS}/00000000-0000-4000-8000-000000000000/remove-asset`, json: {} },
        { url: `${ASSETS}/00000000-0000-4000-8000-000000000000`, json: { isDefaultAsset: true } },
      ];
      const hashBefore = await gateway.test.db.query('select password_hash, mfa_enrollment_status from users order by email');
      for (const call of calls) {
        const response = await agent.call({ method: 'POST', ...call });
        expect(response.statusCode, call.url).toBe(403);
        expect(response.json().error, call.url).toBe('CONCIERGE_NOT_ALLOWED');
      }
      expect(await gateway.test.db.query('select password_hash, mfa_enrollment_status from users order by email')).toEqual(hashBefore);
      expect((await gateway.test.db.query<{ count: number }>('select count(*)::int as count from assets')).rows[0]?.count).toBe(1);
      // The card holder's own calls are untouched by the refusal.
      expect((await emily.browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup', json: {} })).statusCode).toBe(200);
    });

    it("the card holder's cards reach the agent masked, and no card number is in any answer, log or row", async () => {
      const assets = await agent.call({ method: 'GET', url: `user-attribute/concierge/user/assets/${SITE}` });
      expect(assets.statusCode).toBe(200);
      expect(assets.json()).toEqual([
        expect.objectContaining({ isDefaultAsset: true, metadata: expect.arrayContaining([{ name: 'LAST_FOUR', value: pan.slice(-4) }]) }),
      ]);
      await agent.call({ method: 'GET', url: 'user-mgmt/user/find-concierge' });
      await agent.call({ method: 'GET', url: `user-attribute/concierge/user/${SITE}` });
      await expectNoCardNumberAnywhere(gateway.test.db, gateway, [pan]);
    });
  });
});
