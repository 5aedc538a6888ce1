import type { SamlKeys } from '../../../gateway/sso/service-provider';
import type { TestSamlIdpKey } from '../../../gateway/sso/test-saml-idp';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { CounterStore } from '../../../gateway/limits/counter-store';
import type { Mailer } from '../../../gateway/mail/mailer';
import { MemoryOutbox } from '../../../gateway/mail/memory-outbox';
import type { Fixtures } from '../../../gateway/site-files/load-fixtures';
import { buildGateway } from '../../../gateway/server';
import { randomRootKeys, ServerKeyRings, type RootKeys } from '../../../gateway/security/key-ring';
import type { SsoCredentials } from '../../../gateway/sso/client-credentials';
import type { TestIdpKeys } from '../../../gateway/sso/test-idp-keys';
import { AdjustableClock } from '../../../gateway/time/clock';
import type { DatabaseLeg, TestDatabase } from './database-legs';
import type { TestBrowser } from './test-browser';
import { realFixtures } from './test-gateway';

/** A test-mode gateway on a fresh database of `leg`, with its clock, outbox and token key in reach. */
export interface SignInGateway {
  app: FastifyInstance;
  test: TestDatabase;
  clock: AdjustableClock;
  outbox: MemoryOutbox;
  /** The environment's token key: the token ring's `env` entry and root (ADR 0026). */
  tokenSigningKey: Buffer;
  /** The gateway's key rings (ADR 0026), to read again after a rotation instead of waiting for the refresh. */
  keys: ServerKeyRings;
  /** The rings' roots, which `admin keys rotate` seals a new key under. */
  roots: RootKeys;
  /** The 6-digit code of the newest message to `to` that has one. */
  latestCode(to: string): Promise<string>;
  dispose(): Promise<void>;
}

/**
 * Signs in as the site's rule asks (ADR 0008, ADR 0017): when the answer asks the e-mailed passcode,
 * the same call again with the code from the outbox. Answers the last response.
 */
export async function signInWithPasscode(
  gateway: Pick<SignInGateway, 'latestCode'>,
  browser: TestBrowser,
  fields: Record<string, string> & { username: string },
  url?: string,
): Promise<LightMyRequestResponse> {
  const first = await browser.login(fields, url);
  if (first.statusCode !== 401 || first.json().error !== 'OTP_REQUIRED_EMAIL') return first;
  return browser.login({ ...fields, otp: await gateway.latestCode(fields.username), otp_type: 'email' }, url);
}

/**
 * Signs in with a password on the breached list where nothing else proves the person (ADR 0009
 * "Breached passwords"): the first answer must be 401 VBA_TOKEN_REQUIRED, then the same call again
 * with the mailed code as `vba_token`. Answers the last response.
 */
export async function signInWithVbaToken(
  gateway: Pick<SignInGateway, 'latestCode'>,
  browser: TestBrowser,
  fields: Record<string, string> & { username: string },
  url?: string,
): Promise<LightMyRequestResponse> {
  const first = await browser.login(fields, url);
  if (first.statusCode !== 401 || first.json().error !== 'VBA_TOKEN_REQUIRED')
    throw new Error(`expected 401 VBA_TOKEN_REQUIRED, got ${first.statusCode} ${first.body}`);
  return browser.login({ ...fields, vba_token: await gateway.latestCode(fields.username) }, url);
}

export async function openSignInGateway(
  leg: DatabaseLeg,
  options: {
    logger?: FastifyBaseLogger;
    counters?: CounterStore;
    mailer?: Mailer;
    fixtures?: Fixtures;
    ssoCredentials?: SsoCredentials;
    testIdpKeys?: TestIdpKeys;
    metricsToken?: string;
    testSamlIdpKey?: TestSamlIdpKey;
    samlKeys?: SamlKeys;
  } = {},
): Promise<SignInGateway> {
  const test = await leg.openMigrated();
  const clock = new AdjustableClock();
  const outbox = new MemoryOutbox(clock);
  const tokenSigningKey = randomBytes(32);
  const roots: RootKeys = { ...randomRootKeys(), 'token-signing': tokenSigningKey };
  const keys = new ServerKeyRings(roots);
  const app = await buildGateway({
    db: test.db,
    fixtures: options.fixtures ?? (await realFixtures()),
    testMode: true,
    ...(options.ssoCredentials ? { ssoCredentials: options.ssoCredentials } : {}),
    ...(options.testIdpKeys ? { testIdpKeys: options.testIdpKeys } : {}),
    ...(options.testSamlIdpKey ? { testSamlIdpKey: options.testSamlIdpKey } : {}),
    ...(options.samlKeys ? { samlKeys: options.samlKeys } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
    auth: {
      clock,
      devOutbox: outbox,
      keys,
      ...(options.counters ? { counters: options.counters } : {}),
      ...(options.mailer ? { mailer: options.mailer } : {}),
    },
  });
  return {
    app,
    test,
    clock,
    outbox,
    tokenSigningKey,
    keys,
    roots,
    async latestCode(to) {
      // The newest message that carries a code: an account notice (password changed, …) carries none.
      const code = (await outbox.messagesTo(to)).map((message) => /\b(\d{6})\b/.exec(message.text)?.[1]).find((found) => found !== undefined);
      if (code === undefined) throw new Error(`no passcode was sent to ${to}`);
      return code;
    },
    async dispose() {
      await app.close();
      await test.dispose();
    },
  };
}
