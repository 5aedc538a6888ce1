import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { collectCspViolations, launchChromium, saveScreenshot } from './support/browser';
import { endsOn } from './support/navigation';
import { REPO_ROOT } from './support/paths';
import { startPortal, type PortalProcess } from './support/portal-process';
import { newPasscode, outboxIds } from './support/sign-in-helpers';

/**
 * A support agent made and unmade with `npm run admin` alone (README "Admin command", ADR 0026), walked in
 * Chromium against the built gateway on the embedded database: created on northbank, granted firstbank, signs
 * in there through the sign-in form (password, then firstbank's e-mailed passcode), reaches the concierge
 * screen and acts for a card holder (ADR 0014); firstbank revoked, the same sign-in is refused. The command refuses while a gateway holds
 * PGlite (ADR 0003), so the gateway is stopped around each command, as the README tells operators to.
 */
const AGENT = 'desk.agent@example.com';
// Generated per run, handed to the command on stdin and typed into the form; never printed.
const PASSWORD = `Desk!${randomBytes(6).toString('hex')}Ab9`;
const SITE = 'firstbank';
const HOLDER = 'emily.carter@example.com';

function admin(dataDir: string, args: string[], stdin = ''): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // The built command beside the built gateway (gateway/cli/gateway-bundle.ts), as `npm run admin:prod` runs it.
    const command = join(dirname(inject('portalGateway').entry), 'admin.js');
    const child = spawn(process.execPath, [command, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, DATABASE_URL: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
    child.stdin.end(stdin);
  });
}

describe('an agent managed with npm run admin alone, in Chromium (README "Admin command", ADR 0026, ADR 0014)', () => {
  let portal: PortalProcess | undefined;
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const signInAsAgent = async (context: BrowserContext, base: string): Promise<Page> => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/${SITE}/en_us/account/login-form`);
    await page.getByLabel(/^Email/).fill(AGENT);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    return page;
  };

  it('create and grant with the command, sign in as the agent, revoke with the command, refused', async () => {
    // A fresh copy of the migrated and seeded data dir (as startPortal makes one), no gateway on it yet.
    const template = inject('portalGateway').templateDataDir;
    if (template === undefined) throw new Error('the e2e global setup made no template data dir');
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-admin-'));
    await cp(template, dataDir, { recursive: true });

    const created = await admin(dataDir, ['agent', 'create', AGENT, '--site', 'northbank', '--first-name', 'Dana', '--last-name', 'Desk'], `${PASSWORD}\n`);
    expect(created, created.output).toMatchObject({ code: 0 });
    expect(created.output).not.toContain(PASSWORD);
    const granted = await admin(dataDir, ['agent', 'grant', AGENT, SITE]);
    expect(granted, granted.output).toMatchObject({ code: 0 });

    portal = await startPortal({ DATA_DIR: dataDir });
    browser = await launchChromium();
    const context = await browser.newContext();
    const seen = await outboxIds(context.request, portal.baseUrl, AGENT);
    const page = await signInAsAgent(context, portal.baseUrl);
    const cspViolations = collectCspViolations(page);
    await endsOn(page, 'login-otp');
    await page.getByLabel(/^One-time passcode/).fill(await newPasscode(context.request, portal.baseUrl, AGENT, seen));
    await page.getByRole('button', { name: 'Verify' }).click();
    // Signed in, acting for nobody yet: the agent lands on the concierge screen.
    await endsOn(page, 'concierge');
    expect(await page.locator('main h1').textContent()).toBe('Support agent');
    await saveScreenshot(page, 'admin-agent-signed-in');
    // Used: the agent acts for a card holder of the granted site.
    await page.getByLabel("Card holder's e-mail address").fill(HOLDER);
    await page.getByRole('button', { name: 'Act for this card holder' }).click();
    await endsOn(page, 'profile');
    expect(await page.getByRole('region', { name: 'Support agent mode' }).textContent()).toContain('You are acting for Emily Carter');
    await saveScreenshot(page, 'admin-agent-acting');
    expect(cspViolations).toEqual([]);
    await context.close();
    expect(await portal.stop()).toBe(0);

    const revoked = await admin(dataDir, ['agent', 'revoke', AGENT, SITE]);
    expect(revoked, revoked.output).toMatchObject({ code: 0 });

    portal = await startPortal({ DATA_DIR: dataDir });
    const after = await browser.newContext();
    const refusedPage = await signInAsAgent(after, portal.baseUrl);
    // Refused as any wrong combination is (ADR 0008: no account enumeration).
    await expect.poll(() => refusedPage.getByRole('alert').first().textContent()).toContain("Oops that wasn't the right combination.");
    expect(new URL(refusedPage.url()).pathname).toBe(`/${SITE}/en_us/account/login-form`);
    await saveScreenshot(refusedPage, 'admin-agent-revoked-refused');
    await after.close();
    // Three commands and two gateway starts, one after another: the embedded database takes one process at a time.
  }, 120_000);
});
