import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRUSTED_DEVICE_COOKIE } from '../../../gateway/auth/session-cookies';
import { describeDevice, maskAddress, normalisedAddress } from '../../../gateway/auth/session-device';
import { sessionIdOf } from '../../../gateway/auth/session-store';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, signInWithPasscode, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * docs/decisions/0025-fresh-proof.md "Sessions the holder can see", through the real gateway: a person's live
 * sessions on every site of their account and their trusted devices, each named by an id that is neither a token
 * nor its hash; ending one (never someone else's, answered as an unknown one) or all the others; agents refused.
 */
const EMILY = { email: 'emily@example.com', password: 'Firstbank#2025', siteId: 'firstbank', phone: '2025550143' };
const LUKAS = { email: 'lukas@example.com', password: 'Eurobank#2025', siteId: 'eurobank' };
const AGENT = { email: 'riley@example.com', password: 'Agent#Riley2025', siteId: 'firstbank', roles: ['ROLE_CONCIERGE'] };

const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A browser of one device: every call carries its User-Agent. */
class DeviceBrowser extends TestBrowser {
  constructor(
    app: FastifyInstance,
    ip: string,
    private readonly userAgent: string,
  ) {
    super(app, ip);
  }

  override call(call: Parameters<TestBrowser['call']>[0]): Promise<LightMyRequestResponse> {
    return super.call({ ...call, headers: { 'user-agent': this.userAgent, ...call.headers } });
  }
}

describe('what a sign-in is recognised by (gateway/auth/session-device.ts)', () => {
  it.each([
    [ANDROID_CHROME, 'Chrome', 'Android'],
    [WINDOWS_FIREFOX, 'Firefox', 'Windows'],
    [IPHONE_SAFARI, 'Safari', 'iOS'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge', 'macOS'],
    ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0 Mobile/15E148 Safari/604.1', 'Chrome', 'iPadOS'],
    [
      'Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
      'Samsung Internet',
      'Android',
    ],
    ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0', 'Opera', 'ChromeOS'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', 'Chrome', 'Linux'],
  ])('%s is %s on %s', (userAgent, browser, os) => {
    expect(describeDevice(userAgent)).toEqual({ browser, os });
  });

  it('names nothing it does not know, and keeps no text of the header', () => {
    expect(describeDevice('curl/8.5.0')).toEqual({ browser: null, os: null });
    expect(describeDevice(undefined)).toEqual({ browser: null, os: null });
    expect(describeDevice(`<img src=x onerror=alert(1)> ${'A'.repeat(10_000)} Firefox/1`)).toEqual({ browser: null, os: null });
  });

  it('shows the network of an address, never the machine: two octets of IPv4, the /48 of IPv6', () => {
    expect(maskAddress('203.0.113.7')).toBe('203.0.*.*');
    expect(maskAddress('2001:db8:85a3::8a2e:370:7334')).toBe('2001:db8:85a3:*');
    expect(maskAddress('2001:db8::1')).toBe('2001:db8:0:*');
    expect(maskAddress('::1')).toBe('0:0:0:*');
    expect(maskAddress(null)).toBeNull();
    expect(normalisedAddress('::ffff:198.51.100.20')).toBe('198.51.100.20');
    expect(normalisedAddress('FE80::1%eth0')).toBe('fe80::1');
    expect(normalisedAddress('not an address')).toBeNull();
  });
});

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
  });
  afterEach(() => gateway.dispose());

  /** Emily has a profile on firstbank and on eurobank: one account, two banks' sites. */
  async function emilyOnTwoSites(): Promise<string> {
    const id = await insertUser(gateway.test.db, EMILY);
    await gateway.test.db.query(`insert into user_sites (user_id, site_id, attributes) values ($1, 'eurobank', '{}')`, [id]);
    return id;
  }

  async function signedIn(
    who: { email: string; password: string },
    siteId: string,
    device: { ip: string; userAgent: string },
    extra: Record<string, string> = {},
    url?: string,
  ): Promise<DeviceBrowser> {
    const browser = await new DeviceBrowser(gateway.app, device.ip, device.userAgent).open();
    const answer = await signInWithPasscode(gateway, browser, { username: who.email, password: who.password, siteId, ...extra }, url);
    expect(answer.statusCode, answer.body).toBe(200);
    return browser;
  }

  const list = (browser: TestBrowser) => browser.call({ method: 'GET', url: 'user-mgmt/user/sessions' });
  const revoke = (browser: TestBrowser, id: string) => browser.call({ method: 'POST', url: `user-mgmt/user/sessions/${id}/revoke` });
  const revokeAll = (browser: TestBrowser) => browser.call({ method: 'POST', url: 'user-mgmt/user/sessions/revoke-all' });
  const stillSignedIn = async (browser: TestBrowser) => (await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode === 200;

  it('lists the live sessions of one person on two banks’ sites, each by its site, device, masked first address and times, this one first and current', async () => {
    await emilyOnTwoSites();
    const phone = await signedIn(EMILY, 'firstbank', { ip: '203.0.113.7', userAgent: ANDROID_CHROME });
    gateway.clock.advance(120);
    const laptop = await signedIn(EMILY, 'eurobank', { ip: '2001:db8:85a3::8a2e:370:7334', userAgent: WINDOWS_FIREFOX });
    // Someone else's session is never among Emily's.
    await insertUser(gateway.test.db, LUKAS);
    await signedIn(LUKAS, 'eurobank', { ip: '198.51.100.9', userAgent: IPHONE_SAFARI });

    const answer = await list(phone);
    expect(answer.statusCode).toBe(200);
    const { sessions, trustedDevices } = answer.json();
    expect(trustedDevices).toEqual([]);
    expect(sessions).toEqual([
      {
        id: expect.stringMatching(UUID),
        site: { id: 'firstbank', name: 'FirstBank Rewards' },
        device: { browser: 'Chrome', os: 'Android' },
        firstAddress: '203.0.*.*',
        createdAt: expect.any(String),
        lastUsedAt: expect.any(String),
        current: true,
      },
      {
        id: expect.stringMatching(UUID),
        site: { id: 'eurobank', name: 'Eurobank Vorteilsprogramm' },
        device: { browser: 'Firefox', os: 'Windows' },
        firstAddress: '2001:db8:85a3:*',
        createdAt: expect.any(String),
        lastUsedAt: expect.any(String),
        current: false,
      },
    ]);
    // Two minutes apart on the test clock (which also runs with real time).
    expect(new Date(sessions[1].createdAt).getTime() - new Date(sessions[0].createdAt).getTime()).toBeGreaterThanOrEqual(120_000);

    // The same list from the other site's session, marked the other way round.
    const fromLaptop = (await list(laptop)).json().sessions as { id: string; current: boolean }[];
    expect(fromLaptop.map((session) => [session.id, session.current])).toEqual([
      [sessions[1].id, true],
      [sessions[0].id, false],
    ]);
  });

  it('names no session by its token, its hash or anything of a cookie, and shows no full address', async () => {
    await emilyOnTwoSites();
    const phone = await signedIn(EMILY, 'firstbank', { ip: '203.0.113.7', userAgent: ANDROID_CHROME }, { trust_device: 'true' });
    const laptop = await signedIn(EMILY, 'eurobank', { ip: '198.51.100.44', userAgent: WINDOWS_FIREFOX }, {}, 'user-auth/oauth/token');
    const body = (await list(phone)).body;
    const secrets = [phone, laptop].flatMap((browser) => {
      const token = browser.cookies.get('SESSION')!;
      return [token, sessionIdOf(token), browser.cookies.get('XSRF-TOKEN')!];
    });
    secrets.push(phone.cookies.get(TRUSTED_DEVICE_COOKIE)!);
    const stored = await gateway.test.db.query<{ id: string }>('select id from refresh_tokens');
    secrets.push(...stored.rows.map((row) => row.id));
    for (const secret of secrets) expect(body).not.toContain(secret);
    expect(body).not.toContain('203.0.113.7');
    expect(body).not.toContain('198.51.100.44');
    expect(body).not.toContain('Mozilla');
    // The ids are the random public ones.
    const ids = (JSON.parse(body) as { sessions: { id: string }[] }).sessions.map((session) => session.id);
    const publicIds = await gateway.test.db.query<{ public_id: string }>('select public_id from sessions where revoked_at is null');
    expect(ids.sort()).toEqual(publicIds.rows.map((row) => row.public_id).sort());
  });

  it('ends another session of the account, on another site too, with its refresh tokens; the asking one is not ended here (409)', async () => {
    await emilyOnTwoSites();
    const phone = await signedIn(EMILY, 'firstbank', { ip: '203.0.113.7', userAgent: ANDROID_CHROME });
    const laptop = await new DeviceBrowser(gateway.app, '198.51.100.44', WINDOWS_FIREFOX).open();
    const tokens = await signInWithPasscode(gateway, laptop, { username: EMILY.email, password: EMILY.password, siteId: 'eurobank' }, 'user-auth/oauth/token');
    const refreshToken = tokens.json().refresh_token as string;
    expect(refreshToken).toEqual(expect.any(String));
    const [mine, other] = (await list(phone)).json().sessions as { id: string }[];

    const own = await revoke(phone, mine!.id);
    expect(own.statusCode).toBe(409);
    expect(own.json().error).toBe('CURRENT_SESSION');

    const ended = await revoke(phone, other!.id);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ revoked: true });
    expect(await stillSignedIn(laptop)).toBe(false);
    expect(await stillSignedIn(phone)).toBe(true);
    // Its refresh token opens nothing again.
    const refreshed = await new TestBrowser(gateway.app, '198.51.100.44')
      .open()
      .then((browser) =>
        browser.call({ method: 'POST', url: 'user-auth/oauth/token', form: { grant_type: 'refresh_token', refresh_token: refreshToken, siteId: 'eurobank' } }),
      );
    expect(refreshed.statusCode).toBe(401);
    expect(refreshed.json().error).toBe('INVALID_GRANT');
    expect(((await list(phone)).json().sessions as unknown[]).length).toBe(1);

    // Ended is ended: the same id again is not found.
    expect((await revoke(phone, other!.id)).json()).toMatchObject({ error: 'SESSION_NOT_FOUND' });
  });

  it("another person's session id is answered exactly as an unknown one (404), and their session goes on", async () => {
    await emilyOnTwoSites();
    await insertUser(gateway.test.db, LUKAS);
    const emily = await signedIn(EMILY, 'firstbank', { ip: '203.0.113.7', userAgent: ANDROID_CHROME });
    const lukas = await signedIn(LUKAS, 'eurobank', { ip: '198.51.100.9', userAgent: IPHONE_SAFARI });
    const lukasSession = ((await list(lukas)).json().sessions as { id: string }[])[0]!.id;

    const theirs = await revoke(emily, lukasSession);
    const unknown = await revoke(emily, '0b5e8f2a-4c1d-4e7b-9a3f-6d2c8e1b7a90');
    expect(theirs.statusCode).toBe(404);
    expect({ status: theirs.statusCode, body: theirs.json() }).toEqual({ status: unknown.statusCode, body: unknown.json() });
    expect(theirs.json()).toEqual({ error: 'SESSION_NOT_FOUND', message: expect.any(String) });
    expect(await stillSignedIn(lukas)).toBe(true);

    // Not even an id: a 400 naming it.
    const malformed = await revoke(emily, 'x1');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { id: 'invalid' } });
  });

  it('an agent is refused all three calls (403 CONCIERGE_NOT_ALLOWED), also while acting for the holder', async () => {
    await insertUser(gateway.test.db, EMILY);
    await insertUser(gateway.test.db, AGENT);
    const emily = await signedIn(EMILY, 'firstbank', { ip: '203.0.113.7', userAgent: ANDROID_CHROME });
    const holderSession = ((await list(emily)).json().sessions as { id: string }[])[0]!.id;
    const agent = await signedIn(AGENT, 'firstbank', { ip: '198.51.100.70', userAgent: WINDOWS_FIREFOX });
    expect((await agent.call({ method: 'POST', url: 'user-mgmt/user/concierge/act-for', json: { email: EMILY.email } })).statusCode).toBe(200);
    for (const response of [await list(agent), await revoke(agent, holderSession), await revokeAll(agent)]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('CONCIERGE_NOT_ALLOWED');
    }
    expect(await stillSignedIn(emily)).toBe(true);
  });

  it('lists the devices trusted to skip the passcode, this browser marked, one row per browser', async () => {
    await insertUser(gateway.test.db, EMILY);
    const phone = await signedIn(EMILY, 'firstbank', { ip: '203.0.113.7', userAgent: ANDROID_CHROME }, { trust_device: 'true' });
    // The same browser trusted again: its earlier trust ends, so it lists once.
    const again = await signInWithPasscode(gateway, phone, { username: EMILY.email, password: EMILY.password, siteId: 'firstbank', trust_device: 'true' });
    expect(again.statusCode).toBe(200);
    const laptop = await signedIn(EMILY, 'firstbank', { ip: '198.51.100.44', userAgent: WINDOWS_FIREFOX });

    const fromPhone = (await list(phone)).json().trustedDevices;
    expect(fromPhone).toEqual([
      {
        id: expect.stringMatching(UUID),
        site: { id: 'firstbank', name: 'FirstBank Rewards' },
        device: { browser: 'Chrome', os: 'Android' },
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        current: true,
      },
    ]);
    expect(new Date(fromPhone[0].expiresAt).getTime() - new Date(fromPhone[0].createdAt).getTime()).toBe(15 * 60_000);
    expect((await list(laptop)).json().trustedDevices).toEqual([{ ...fromPhone[0], current: false }]);
    // Past its 15 minutes it is no longer listed (nor trusted).
    gateway.clock.advance(16 * 60);
    const signedInLater = await signedIn(EMILY, 'firstbank', { ip: '198.51.100.44', userAgent: WINDOWS_FIREFOX });
    expect((await list(signedInLater)).json().trustedDevices).toEqual([]);
  });

  it('signs out everywhere else: every other session on every site and every trusted device end, the asking one goes on', async () => {
    await emilyOnTwoSites();
    const phone = await signedIn(EMILY, 'firstbank', { ip: '203.0.113.7', userAgent: ANDROID_CHROME }, { trust_device: 'true' });
    const laptop = await signedIn(EMILY, 'eurobank', { ip: '198.51.100.44', userAgent: WINDOWS_FIREFOX });
    const tablet = await signedIn(EMILY, 'firstbank', { ip: '198.51.100.45', userAgent: IPHONE_SAFARI });

    const ended = await revokeAll(laptop);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ sessionsEnded: 2, trustedDevicesEnded: 1 });
    expect(await stillSignedIn(phone)).toBe(false);
    expect(await stillSignedIn(tablet)).toBe(false);
    expect(await stillSignedIn(laptop)).toBe(true);
    const after = (await list(laptop)).json();
    expect(after.sessions).toEqual([expect.objectContaining({ current: true, device: { browser: 'Firefox', os: 'Windows' } })]);
    expect(after.trustedDevices).toEqual([]);
    const rows = await gateway.test.db.query<{ ended: boolean }>('select ended_at is not null as ended from trusted_devices');
    expect(rows.rows).toEqual([{ ended: true }]);

    // The phone's trust cookie no longer skips the passcode.
    const back = await phone.login({ username: EMILY.email, password: EMILY.password, siteId: 'firstbank' });
    expect(back.statusCode).toBe(401);
    expect(back.json().error).toBe('OTP_REQUIRED_EMAIL');
    // Nothing else was live: a second call ends nothing more.
    expect((await revokeAll(laptop)).json()).toEqual({ sessionsEnded: 0, trustedDevicesEnded: 0 });
  });

  it('moves "last used" at most once a minute, whatever the number of calls', async () => {
    await insertUser(gateway.test.db, EMILY);
    const phone = await signedIn(EMILY, 'firstbank', { ip: '203.0.113.7', userAgent: ANDROID_CHROME });
    const lastUsed = async () => ((await list(phone)).json().sessions as { lastUsedAt: string; createdAt: string }[])[0]!;
    const first = await lastUsed();
    expect(first.lastUsedAt).toBe(first.createdAt);
    gateway.clock.advance(30);
    for (let call = 0; call < 5; call++) expect(await stillSignedIn(phone)).toBe(true);
    expect((await lastUsed()).lastUsedAt).toBe(first.createdAt);
    gateway.clock.advance(31);
    const moved = await lastUsed();
    expect(new Date(moved.lastUsedAt).getTime() - new Date(first.createdAt).getTime()).toBeGreaterThanOrEqual(61_000);
  });
});
