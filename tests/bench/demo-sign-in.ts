import { readFileSync } from 'node:fs';
import { REPO_ROOT } from '../e2e/support/paths';
import { readSiteFixture } from '../support/site-fixtures';

/** A demo card holder of fixtures/demo-users.json (gateway/db/seed-demo-data.ts seeds them). */
export interface DemoUser {
  email: string;
  password: string;
  siteId: string;
  status: string;
}

/** An active demo user of a site that asks no sign-in passcode (`login_otp` none), so one call signs in. */
export function demoUserWithoutPasscode(): DemoUser {
  const users = JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/demo-users.json`, 'utf8')) as DemoUser[];
  const user = users.find((candidate) => {
    if (candidate.status !== 'ACTIVE') return false;
    const authProfile = readSiteFixture(candidate.siteId).siteFeatureConfigurations.find((feature) => feature.name === 'site_auth_profile');
    return (authProfile?.featureConfig as { login_otp?: string } | undefined)?.login_otp === 'none';
  });
  if (!user) throw new Error('fixtures/demo-users.json has no active user on a site without a sign-in passcode');
  return user;
}

/** The form fields of a password sign-in, `POST user-auth/login` (SPEC §7). */
export function passwordSignInFields(user: DemoUser): Record<string, string> {
  return { username: user.email, password: user.password, grant_type: 'password', siteId: user.siteId, locale: 'en_us', init_login: 'true' };
}

/**
 * A fresh sign-in through the real `POST user-auth/login` (SPEC §7): its cookies, as a Cookie header and one by one
 * (for a browser's jar), with its XSRF pair.
 */
export async function signIn(baseUrl: string, user: DemoUser): Promise<{ cookie: string; xsrf: string; cookies: { name: string; value: string }[] }> {
  const jar = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
  };
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  remember(await fetch(`${baseUrl}/api/site-config-service/config/site/${user.siteId}`));
  const xsrf = jar.get('XSRF-TOKEN') ?? '';
  const answer = await fetch(`${baseUrl}/api/user-auth/login`, {
    method: 'POST',
    headers: { cookie: cookieHeader(), 'x-xsrf-token': xsrf },
    body: new URLSearchParams(passwordSignInFields(user)),
  });
  if (!answer.ok) throw new Error(`bench sign-in of ${user.email}: ${answer.status} ${await answer.text()}`);
  remember(answer);
  return { cookie: cookieHeader(), xsrf, cookies: [...jar].map(([name, value]) => ({ name, value })) };
}
