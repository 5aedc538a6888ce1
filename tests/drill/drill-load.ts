/**
 * The fault drill's load (README "Fault drill"): a fixed, bounded rate of the portal's everyday calls on
 * loopback: reads of the profile, profile saves, registrations and password sign-ins of demo users. Every
 * answer is kept (when sent, when answered, the status and error code) and every acknowledged write is
 * remembered, so the drill can check each one in the database afterwards.
 */
import { readFileSync } from 'node:fs';
import { randomBytes, randomInt } from 'node:crypto';
import { REPO_ROOT } from '../e2e/support/paths';
import { firstbankUser } from '../gateway/support/account-requests';
import { readSiteFixture } from '../support/site-fixtures';
import { PROXY_ANSWER_HEADER } from './drill-parts';
import { passwordSignInFields, signIn, type DemoUser } from '../bench/demo-sign-in';

/** Requests per second, all kinds together; the mix below. */
export const LOAD_RATE_PER_SECOND = 30;
const REQUEST_TIMEOUT_MS = 5_000;
const REGISTRATION_PASSWORD = 'Rewards#2025x';

export interface Outcome {
  kind: 'read' | 'save' | 'registration' | 'sign-in';
  phase: string;
  sentAt: number;
  endedAt: number;
  /** `ok`, `<status> <error code>`, `proxy <status> <code>` or the client's failure (`ECONNREFUSED`, `timeout`). */
  result: string;
}

interface Session {
  user: DemoUser;
  cookie: string;
  xsrf: string;
  saving: boolean;
}

/** One save of a profile field: its value and whether the gateway acknowledged it (2xx). */
export interface SaveAttempt {
  email: string;
  siteId: string;
  value: string;
  phase: string;
  acknowledged: boolean;
}

/** Active demo users on sites without a sign-in passcode: one call signs each in. */
function demoUsersWithoutPasscode(): DemoUser[] {
  const users = JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/demo-users.json`, 'utf8')) as DemoUser[];
  return users.filter((user) => {
    if (user.status !== 'ACTIVE') return false;
    const authProfile = readSiteFixture(user.siteId).siteFeatureConfigurations.find((feature) => feature.name === 'site_auth_profile');
    return (authProfile?.featureConfig as { login_otp?: string } | undefined)?.login_otp === 'none';
  });
}

/** A Luhn-valid test card number on the BIN the registration form names (411111111). */
function testCardNumber(): string {
  const digits = `411111111${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return `${digits}${String((10 - (sum % 10)) % 10)}`;
}

/** Letters only (a name field takes no digits): 0 → "a", 27 → "bb". */
function letters(count: number): string {
  let text = '';
  let rest = count;
  do {
    text = String.fromCharCode(97 + (rest % 26)) + text;
    rest = Math.floor(rest / 26);
  } while (rest > 0);
  return text;
}

/**
 * `ok`, or `<status> <error code>` of a gateway's answer (a 503 without Retry-After says so), or `proxy <status>
 * <code>` when no gateway answered (drill-parts.ts).
 */
async function classify(answer: Response): Promise<string> {
  if (answer.ok) return 'ok';
  const body = await answer.text();
  const by = answer.headers.has(PROXY_ANSWER_HEADER) ? 'proxy ' : '';
  const retryAfter = answer.status === 503 && !answer.headers.has('retry-after') ? ' without Retry-After' : '';
  try {
    return `${by}${String(answer.status)} ${String((JSON.parse(body) as { error?: unknown }).error ?? '')}${retryAfter}`;
  } catch {
    return `${by}${String(answer.status)} (not JSON)${retryAfter}`;
  }
}

function failureOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timeout';
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code ?? (error instanceof Error ? error.message : String(error));
}

export class DrillLoad {
  readonly outcomes: Outcome[] = [];
  readonly saves: SaveAttempt[] = [];
  /** Registrations the gateway answered 202: each must have its account row. */
  readonly registrations: { email: string; phase: string }[] = [];
  phase = 'warm-up';
  private readonly run = randomBytes(4).toString('hex');
  private sessions: Session[] = [];
  private anonymous = { cookie: '', xsrf: '' };
  private counter = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly baseUrl: string) {}

  /** Signs the demo users in once (their sessions live in the database, so they survive restarts). */
  async prepare(): Promise<void> {
    const users = demoUsersWithoutPasscode();
    // A user the gateway asks for more than a password (a breached password's passcode) is left out.
    const signedIn = await Promise.allSettled(
      users.map(async (user) => {
        const { cookie, cookies } = await signIn(this.baseUrl, user);
        // The sign-in hands out a fresh XSRF-TOKEN cookie; the saves echo that one.
        return { user, cookie, xsrf: cookies.findLast((entry) => entry.name === 'XSRF-TOKEN')?.value ?? '', saving: false };
      }),
    );
    this.sessions = signedIn.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    if (this.sessions.length === 0) throw new Error('no demo user signed in with a password alone');
    const answer = await fetch(`${this.baseUrl}/api/site-config-service/config/site/firstbank`);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(answer.headers.getSetCookie().join('; '))?.[1] ?? '';
    this.anonymous = { cookie: `XSRF-TOKEN=${xsrf}`, xsrf };
  }

  start(): void {
    this.timer = setInterval(() => {
      const call = this.next();
      this.inFlight.add(call);
      void call.finally(() => this.inFlight.delete(call));
    }, 1000 / LOAD_RATE_PER_SECOND);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.inFlight]);
  }

  /** 70 % reads, 15 % saves, 7.5 % registrations, 7.5 % sign-ins (a save only while that user has none in flight). */
  private next(): Promise<void> {
    this.counter += 1;
    const n = this.counter;
    const session = this.sessions[n % this.sessions.length]!;
    const slot = n % 40;
    if (slot < 3) return this.registration(n);
    if (slot < 6) return this.signIn(session, n);
    if (slot < 12 && !session.saving) return this.save(session, n);
    return this.call('read', `/api/user-mgmt/user/find`, { headers: { cookie: session.cookie } }).then(() => undefined);
  }

  private async call(kind: Outcome['kind'], path: string, init: RequestInit): Promise<string> {
    const phase = this.phase;
    const sentAt = Date.now();
    let result: string;
    try {
      result = await classify(await fetch(`${this.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }));
    } catch (error) {
      result = failureOf(error);
    }
    this.outcomes.push({ kind, phase, sentAt, endedAt: Date.now(), result });
    return result;
  }

  private async save(session: Session, n: number): Promise<void> {
    session.saving = true;
    const value = `Drill${letters(n)}`;
    const phase = this.phase;
    const result = await this.call('save', `/api/user-attribute/v2/user/${session.user.siteId}`, {
      method: 'POST',
      headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf, 'content-type': 'application/json' },
      body: JSON.stringify({ attributes: { first_name: value } }),
    });
    this.saves.push({ email: session.user.email, siteId: session.user.siteId, value, phase, acknowledged: result === 'ok' });
    session.saving = false;
  }

  private async registration(n: number): Promise<void> {
    const email = `drill-${this.run}-${String(n)}@example.com`;
    const phase = this.phase;
    const result = await this.call('registration', '/api/user-mgmt/user/registration', {
      method: 'POST',
      headers: {
        cookie: this.anonymous.cookie,
        'x-xsrf-token': this.anonymous.xsrf,
        'x-hcaptcha-token': 'drill-captcha',
        'content-type': 'application/json',
        // Each caller its own address (TRUST_PROXY=true, development only): the per-IP limits count people, not the drill.
        'x-forwarded-for': `10.77.${String((n >> 8) & 255)}.${String(n & 255)}`,
      },
      body: JSON.stringify({
        siteId: 'firstbank',
        locale: 'en_us',
        user: firstbankUser({ email, password: REGISTRATION_PASSWORD, confirm_password: REGISTRATION_PASSWORD }),
        cards: [{ pan: testCardNumber() }],
      }),
    });
    if (result === 'ok') this.registrations.push({ email, phase });
  }

  private async signIn(session: Session, n: number): Promise<void> {
    await this.call('sign-in', '/api/user-auth/login', {
      method: 'POST',
      headers: { cookie: this.anonymous.cookie, 'x-xsrf-token': this.anonymous.xsrf, 'x-forwarded-for': `10.78.${String((n >> 8) & 255)}.${String(n & 255)}` },
      body: new URLSearchParams(passwordSignInFields(session.user)),
    });
  }
}
