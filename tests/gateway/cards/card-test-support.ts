import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, expect } from 'vitest';
import type { Database } from '../../../gateway/db/database';
import type { Fixtures } from '../../../gateway/site-files/load-fixtures';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { capturingLogger } from '../support/capturing-logger';
import type { DatabaseLeg } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { realFixtures } from '../support/test-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/** The assets calls at the paths every site fixture configures (SPEC §3 pan_capture options). */
export const ASSETS = 'user-attribute/user/assets';
export const VALIDATION = `${ASSETS}/validation`;
export const PASSWORD = 'Rewards#2025x';

/** A copy of firstbank whose pan_capture names other card call URLs, as a new site's fixture may. */
export async function fixturesWithAltbank(): Promise<Fixtures> {
  const real = await realFixtures();
  const altbank = structuredClone<SiteConfig>(real.sites.get('firstbank')!.config);
  altbank.siteId = 'altbank';
  const panCapture = altbank.siteFeatureConfigurations.find((feature) => feature.name === 'pan_capture')!.featureConfig;
  Object.assign(panCapture, { assetsUrl: 'cards/v2/assets', assetsValidationUrl: 'cards/v2/eligibility', updateAssetUrl: 'cards/v2/assets/{{id}}/default' });
  return { ...real, sites: new Map([...real.sites, ['altbank', { config: altbank, raw: JSON.stringify(altbank) }]]) };
}

/** A Luhn-valid 16-digit number: `prefix`, then `serial` zero-padded, then the check digit. */
export function testPan(prefix: string, serial: number): string {
  const body = `${prefix}${String(serial).padStart(15 - prefix.length, '0')}`;
  let sum = 0;
  for (let fromRight = 0; fromRight < body.length; fromRight++) {
    // The check digit will sit right of `body`, so the digit next to it is doubled.
    const digit = Number(body[body.length - 1 - fromRight]);
    const weighted = fromRight % 2 === 0 ? digit * 2 : digit;
    sum += weighted > 9 ? weighted - 9 : weighted;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** 4111 11xx xxxx xxxx: eligible, product type C, in fixtures/bin-ranges.json. */
export const eligiblePan = (serial: number) => testPan('411111', serial);

/** A TestBrowser that also keeps every answer, for the secrecy check. */
export class RecordingBrowser extends TestBrowser {
  readonly answers: string[] = [];

  override async call(call: Parameters<TestBrowser['call']>[0]): Promise<LightMyRequestResponse> {
    const response = await super.call(call);
    this.answers.push(`${JSON.stringify(response.headers)}\n${response.body}`);
    return response;
  }
}

/** A gateway on a fresh database of `leg`, with its log lines and every card number the test used. */
export interface CardsGateway extends SignInGateway {
  logLines: string[];
  browsers: RecordingBrowser[];
  /** A signed-in browser for a new user of `siteId`. */
  signedIn(email: string, siteId: string): Promise<{ browser: RecordingBrowser; userId: string }>;
  /** Another browser of an existing user, signed in on `siteId` (one identity across sites, ADR 0017). */
  signedInOn(email: string, siteId: string): Promise<RecordingBrowser>;
  /** A browser with the XSRF cookie and no session. */
  anonymous(ip?: string): Promise<RecordingBrowser>;
}

export async function openCardsGateway(leg: DatabaseLeg): Promise<CardsGateway> {
  const { logger, lines } = capturingLogger();
  const gateway = await openSignInGateway(leg, { logger });
  const browsers: RecordingBrowser[] = [];
  const anonymous = async (ip?: string) => {
    const browser = await new RecordingBrowser(gateway.app, ip).open();
    browsers.push(browser);
    return browser;
  };
  const signedInOn = async (email: string, siteId: string) => {
    const browser = await anonymous();
    const session = await browser.call({ method: 'POST', url: 'test-support/session', json: { email, siteId } });
    expect(session.statusCode).toBe(200);
    return browser;
  };
  return {
    ...gateway,
    logLines: lines,
    browsers,
    anonymous,
    signedInOn,
    async signedIn(email, siteId) {
      const userId = await insertUser(gateway.test.db, { email, password: PASSWORD, siteId });
      return { browser: await signedInOn(email, siteId), userId };
    },
  };
}

/**
 * A fresh cards gateway for each test (handed to `opened`), and afterwards ADR 0011's look at its
 * database, logs and answers for any of the `used` card numbers, then its disposal.
 */
export function openCardsGatewayForEachTest(leg: DatabaseLeg, used: ReadonlySet<string>, opened: (gateway: CardsGateway) => void): void {
  let gateway: CardsGateway | undefined;
  beforeEach(async () => {
    gateway = await openCardsGateway(leg);
    opened(gateway);
  });
  afterEach(async () => {
    if (!gateway) return;
    try {
      await expectNoCardNumberAnywhere(gateway.test.db, gateway, [...used]);
    } finally {
      await gateway.dispose();
    }
  });
}

/** A run of 13 to 19 digits: a card number, as stored, logged or answered. */
const CARD_NUMBER_RUN = /\d{13,19}/;
/** Keyed hashes and token digests (hex, 32+ characters) hold decimal runs by chance; a card number is 16 digits. */
const LONG_HEX = /[0-9a-f]{32,}/g;

/**
 * ADR 0011 "the suite dumps the database at the end and looks": every row of every table as
 * JSON, every log line's texts and every answer hold no card number, and none of the numbers the
 * test used appears anywhere, not even inside a longer value.
 */
export async function expectNoCardNumberAnywhere(db: Database, gateway: CardsGateway, usedNumbers: readonly string[]): Promise<void> {
  const usedPans = usedNumbers.filter((digits) => digits.length >= 13);
  const tables = await db.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'",
  );
  const rows: string[] = [];
  for (const { name } of tables.rows) {
    const dump = await db.query<{ row: string }>(`select row_to_json(t)::text as row from ${name} t`);
    rows.push(...dump.rows.map(({ row }) => `${name}: ${row}`));
  }
  expect(
    tables.rows.map(({ name }) => name),
    'the dump covers the cards',
  ).toContain('assets');
  const logTexts = gateway.logLines.map((line) => stringsOf(JSON.parse(line) as unknown).join('\n'));
  const answers = gateway.browsers.flatMap((browser) => browser.answers);
  for (const [where, texts] of [
    ['database', rows],
    ['logs', logTexts],
    ['answers', answers],
  ] as const) {
    for (const text of texts) {
      expect(text.replace(LONG_HEX, '<hex>'), `${where}: ${text.slice(0, 200)}`).not.toMatch(CARD_NUMBER_RUN);
      for (const pan of usedPans) expect(text, where).not.toContain(pan);
    }
  }
  for (const line of gateway.logLines) for (const pan of usedPans) expect(line).not.toContain(pan);
}

/** Every string inside a parsed JSON value (log lines keep numbers such as epoch times, which are not card numbers). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsOf);
  return [];
}
