import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Database } from '../../../gateway/db/database';
import { hashPassword } from '../../../gateway/security/password-hashing';
import { passcodePhoneOf } from '../../../gateway/auth/passcode-delivery';

/** A multipart/form-data body as a browser's FormData sends it (SPEC §3 login payload). */
export function multipart(fields: Record<string, string>, boundary = 'test-boundary-7MA4YWxkTrZu0gW'): { payload: string; contentType: string } {
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return { payload: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

interface Call {
  method: 'GET' | 'POST';
  url: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** Leave the X-XSRF-TOKEN header out (CSRF tests). */
  withoutXsrfHeader?: boolean;
}

/**
 * One browser against an injected gateway: keeps its cookies (dropping expired ones), echoes the
 * XSRF-TOKEN cookie in X-XSRF-TOKEN as the app does (SPEC §7), and calls from its own IP.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    readonly ip = '198.51.100.7',
    readonly base = '/api',
  ) {}

  /** A first page load: the gateway hands out the XSRF-TOKEN cookie (ADR 0008). */
  async open(): Promise<this> {
    await this.call({ method: 'GET', url: 'site-config-service/config/site/firstbank' });
    return this;
  }

  async call(call: Call): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...call.headers };
    let payload: string | undefined;
    if (call.form) {
      const body = multipart(call.form);
      payload = body.payload;
      headers['content-type'] = body.contentType;
    } else if (call.json !== undefined) {
      payload = JSON.stringify(call.json);
      headers['content-type'] = 'application/json';
    }
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (xsrf !== undefined && !call.withoutXsrfHeader) headers['x-xsrf-token'] = xsrf;
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.app.inject({
      method: call.method,
      url: `${this.base}/${call.url}`,
      headers,
      remoteAddress: this.ip,
      ...(payload === undefined ? {} : { payload }),
    });
    this.remember(response.headers['set-cookie']);
    // ADR 0012: account mail and account creation run after the answer; a test reads their outcome settled.
    await this.app.accountJobs.whenIdle();
    return response;
  }

  login(fields: Record<string, string>, url = 'user-auth/login'): Promise<LightMyRequestResponse> {
    return this.call({
      method: 'POST',
      url,
      form: { grant_type: 'password', locale: 'en_us', ...(url === 'user-auth/login' ? { init_login: 'true' } : {}), ...fields },
    });
  }

  private remember(setCookie: string | string[] | undefined): void {
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]) {
      const [pair = '', ...attributes] = line.split('; ');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const expires = attributes.find((attribute) => attribute.startsWith('Expires='));
      if (value === '' || (expires !== undefined && new Date(expires.slice('Expires='.length)).getTime() <= Date.now())) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

export interface TestUser {
  email: string;
  password: string;
  siteId: string;
  status?: 'ACTIVE' | 'INACTIVE';
  roles?: string[];
  phone?: string;
}

/** Inserts a user with a real argon2id hash and a profile on their site (an agent: granted that site); returns the id. */
/**
 * One argon2id hash per password per test file: hashing at the production cost is most of an inserted user's
 * time, and no test reads a stored hash's salt (a sign-in verifies it as any other).
 */
const hashes = new Map<string, Promise<string>>();
const storedHashOf = (password: string): Promise<string> => {
  let stored = hashes.get(password);
  if (stored === undefined) {
    stored = hashPassword(password);
    hashes.set(password, stored);
  }
  return stored;
};

export async function insertUser(db: Database, user: TestUser): Promise<string> {
  const inserted = await db.query<{ id: string }>(
    `insert into users (email, password_hash, first_name, last_name, status, roles) values ($1, $2, 'Test', 'User', $3, $4) returning id`,
    [user.email, await storedHashOf(user.password), user.status ?? 'ACTIVE', user.roles ?? ['ROLE_CARDHOLDER']],
  );
  const id = inserted.rows[0]!.id;
  // The phone a test user starts with is the proved one passcodes go to, as registration makes it (ADR 0025).
  const attributes = user.phone ? { phone: user.phone } : {};
  await db.query('insert into user_sites (user_id, site_id, attributes, passcode_phone) values ($1, $2, $3, $4)', [
    id,
    user.siteId,
    JSON.stringify(attributes),
    passcodePhoneOf(attributes),
  ]);
  // ADR 0017: an agent works on the sites granted in data; a test agent is granted their own site.
  if (user.roles?.includes('ROLE_CONCIERGE')) await db.query('insert into agent_site_grants (user_id, site_id) values ($1, $2)', [id, user.siteId]);
  return id;
}
