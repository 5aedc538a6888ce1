/**
 * ADR 0012, no account enumeration (same answers, same timing within noise): how long registration,
 * `activation-email` and `send-passcode` keep the caller waiting for an address that has an
 * account and for one that has none, on an embedded gateway (PGlite in memory), interleaved so
 * machine noise hits both alike. The account work runs after the answer (ADR 0012), so only the
 * answer is timed; the queue is settled between calls so one call's job never delays the next.
 */
import { migrate } from '../../gateway/db/migrate';
import { openPglite } from '../../gateway/db/open-pglite';
import { loadFixtures } from '../../gateway/site-files/load-fixtures';
import { buildGateway } from '../../gateway/server';
import { hashPassword } from '../../gateway/security/password-hashing';
import { firstbankUser, registrationBody } from '../gateway/support/account-requests';
import { TestBrowser } from '../gateway/support/test-browser';
import { ascending, median, percentile, ratio, type BenchRow } from './bench-table';

const CALLS_PER_SIDE = 100;

interface AccountCall {
  name: string;
  url: string;
  body(email: string): unknown;
}

const CALLS: readonly AccountCall[] = [
  { name: 'send-passcode', url: 'user-mgmt/user/send-passcode', body: (email) => ({ email, siteId: 'firstbank', locale: 'en_us' }) },
  { name: 'activation-email', url: 'user-mgmt/user/activation-email', body: (email) => ({ email, siteId: 'firstbank', locale: 'en_us' }) },
  { name: 'registration', url: 'user-mgmt/user/registration', body: (email) => registrationBody(firstbankUser({ email })) },
];

export async function accountEnumerationRows(): Promise<BenchRow[]> {
  const db = await openPglite();
  await migrate(db);
  const app = await buildGateway({ db, fixtures: await loadFixtures(), testMode: true });
  try {
    // Inactive accounts: each call does its most work for them (a new activation link, a recovery code).
    const passwordHash = await hashPassword('Bench#Password1');
    const known: string[] = [];
    for (let index = 0; index < CALLS.length * CALLS_PER_SIDE; index += 1) {
      const email = `known.${index}@example.com`;
      await db.query(`insert into users (email, password_hash, status) values ($1, $2, 'INACTIVE')`, [email, passwordHash]);
      known.push(email);
    }
    const rows: BenchRow[] = [];
    let caller = 0;
    for (const [callIndex, accountCall] of CALLS.entries()) {
      const timings = { known: [] as number[], unknown: [] as number[] };
      for (let round = 0; round < CALLS_PER_SIDE; round += 1) {
        const pair = [
          { side: 'known' as const, email: known[callIndex * CALLS_PER_SIDE + round] ?? '' },
          { side: 'unknown' as const, email: `unknown.${accountCall.name}.${round}@example.com` },
        ];
        if (round % 2 === 1) pair.reverse();
        for (const { side, email } of pair) {
          // A fresh caller address each time, so the per-IP limit never answers instead.
          caller += 1;
          const browser = await new TestBrowser(app, `10.9.${Math.floor(caller / 250)}.${caller % 250}`).open();
          const xsrf = browser.cookies.get('XSRF-TOKEN') ?? '';
          const started = performance.now();
          // Injected directly: TestBrowser.call would also wait for the job, which the caller never does.
          const answer = await app.inject({
            method: 'POST',
            url: `/api/${accountCall.url}`,
            remoteAddress: browser.ip,
            headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf, 'x-hcaptcha-token': 'bench' },
            payload: JSON.stringify(accountCall.body(email)),
          });
          timings[side].push(performance.now() - started);
          if (answer.statusCode !== 202) throw new Error(`${accountCall.name} answered ${answer.statusCode}: ${answer.body}`);
          await app.accountJobs.whenIdle();
        }
      }
      const knownMedian = median(timings.known);
      const unknownMedian = median(timings.unknown);
      rows.push({
        figure: `${accountCall.name} answer, account vs none (median/p90 of ${CALLS_PER_SIDE})`,
        value: `account: ${knownMedian.toFixed(2)}/${percentile(ascending(timings.known), 0.9).toFixed(2)} ms`,
        reference: `no account: ${unknownMedian.toFixed(2)}/${percentile(ascending(timings.unknown), 0.9).toFixed(2)} ms`,
        ratio: `median ${ratio(knownMedian, unknownMedian)}`,
        target: 'medians within noise',
        met: null,
      });
    }
    return rows;
  } finally {
    await app.close();
    await db.close();
  }
}
