import { afterEach, beforeEach, expect, it } from 'vitest';
import { capturingLogger } from '../support/capturing-logger';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * ADR 0008: when the mail or SMS server does not take a passcode, the sign-in answers 503
 * DELIVERY_UNAVAILABLE with Retry-After, never a 500, opens no session, and no log line carries
 * the address or the code.
 */
const EMILY = { email: 'emily@example.com', password: 'Firstbank#2025', siteId: 'firstbank' };
const REFUSAL = 'connect ECONNREFUSED 127.0.0.1:2525 while sending to emily@example.com';

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let lines: string[];
  beforeEach(async () => {
    const captured = capturingLogger();
    lines = captured.lines;
    gateway = await openSignInGateway(leg, {
      logger: captured.logger,
      mailer: {
        send: async () => {
          throw new Error(REFUSAL);
        },
      },
    });
    await insertUser(gateway.test.db, EMILY);
  });
  afterEach(() => gateway.dispose());

  it('a sign-in whose e-mailed passcode cannot be sent answers 503 DELIVERY_UNAVAILABLE with Retry-After, and no session', async () => {
    const browser = await new TestBrowser(gateway.app).open();
    const response = await browser.login({ username: EMILY.email, password: EMILY.password, siteId: 'firstbank' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('60');
    expect(response.json()).toEqual({ error: 'DELIVERY_UNAVAILABLE', message: 'We could not send your passcode just now; try again in a minute.' });
    expect(browser.cookies.has('SESSION')).toBe(false);
    expect((await gateway.test.db.query('select 1 from sessions')).rows).toEqual([]);
    expect(lines.join('\n')).not.toContain(EMILY.email);
    expect(lines.join('\n')).not.toContain('ECONNREFUSED');
  });
});
