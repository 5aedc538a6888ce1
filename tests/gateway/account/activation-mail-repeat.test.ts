import { afterEach, beforeEach, expect, it } from 'vitest';
import { rotateKey } from '../../../gateway/admin/admin-tasks';
import type { OutgoingMessage } from '../../../gateway/mail/mailer';
import { KEY_ACTIVATION_DELAY_MS } from '../../../gateway/security/key-ring';
import { MemoryOutbox } from '../../../gateway/mail/memory-outbox';
import { AdjustableClock } from '../../../gateway/time/clock';
import { activationTokenFor, ANA_PASSWORD, register, registrationBody } from '../support/account-requests';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { TestBrowser } from '../support/test-browser';

/**
 * docs/decisions/0012-account-work-after-the-answer.md "A job run twice": an `activation-email` job that
 * runs again after its mail went out (a crash before the job was deleted, or a mail server that took the
 * mail and then dropped the connection) mails the same link, and that link works: the person who opens
 * the first mail is not told it is invalid.
 */
describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  /** Set to make the next send deliver the message and then fail, as a run cut off after its send. */
  let failAfterNextSend = false;
  /** What the mail server accepted. */
  let outbox: MemoryOutbox;
  beforeEach(async () => {
    outbox = new MemoryOutbox(new AdjustableClock());
    const mailer = {
      async send(message: OutgoingMessage) {
        await outbox.send(message);
        if (failAfterNextSend) {
          failAfterNextSend = false;
          throw new Error('connection lost after the mail was accepted');
        }
      },
    };
    gateway = await openSignInGateway(leg, { mailer });
    browser = await new TestBrowser(gateway.app).open();
    expect((await register(browser, registrationBody())).statusCode).toBe(202);
  });
  afterEach(() => gateway.dispose());

  it('the repeated run of one activation-email job mails the link of the first run, and it activates the account', async () => {
    const registrationLink = await activationTokenFor(outbox, 'ana@example.com');
    failAfterNextSend = true;
    const resend = await browser.call({
      method: 'POST',
      url: 'user-mgmt/user/activation-email',
      json: { email: 'ana@example.com', siteId: 'firstbank', locale: 'en_us' },
    });
    expect(resend.statusCode).toBe(202);
    await gateway.app.accountJobs.whenIdle();
    const firstRun = await activationTokenFor(outbox, 'ana@example.com');
    expect(firstRun).not.toBe(registrationLink);

    // ADR 0012: the failed job runs again 30 s later.
    gateway.clock.advance(31);
    gateway.app.accountJobs.wake();
    await gateway.app.accountJobs.whenIdle();
    const mails = await outbox.messagesTo('ana@example.com');
    expect(mails).toHaveLength(3);
    const secondRun = await activationTokenFor(outbox, 'ana@example.com');
    expect(secondRun).toBe(firstRun);
    // Stored hashed still: the table never holds the token itself.
    const stored = await gateway.test.db.query<{ id: string }>('select id from activation_tokens');
    expect(stored.rows.map((row) => row.id)).not.toContain(firstRun);

    const activated = await browser.call({ method: 'POST', url: 'user-mgmt/user/activate-token', json: { token: firstRun, password: ANA_PASSWORD } });
    expect(activated.statusCode).toBe(200);
    expect(activated.json()).toEqual({ status: 'ACTIVATED' });
  });

  it("a run repeated after a token key rotation still mails the first run's link (ADR 0026: the link under any live key is the job's)", async () => {
    failAfterNextSend = true;
    await browser.call({ method: 'POST', url: 'user-mgmt/user/activation-email', json: { email: 'ana@example.com', siteId: 'firstbank', locale: 'en_us' } });
    await gateway.app.accountJobs.whenIdle();
    const firstRun = await activationTokenFor(outbox, 'ana@example.com');

    const context = { db: gateway.test.db, sites: new Set<string>(), operator: 'ops.tester', correlationId: 'rotation', now: gateway.clock.now() };
    await rotateKey(context, gateway.roots['token-signing'], 'token-signing', '1d');
    await gateway.keys.refresh(gateway.test.db);
    gateway.clock.advance(KEY_ACTIVATION_DELAY_MS / 1000 + 1);
    expect(gateway.keys.token.current(gateway.clock.now()).id).toBe('k2');
    gateway.app.accountJobs.wake();
    await gateway.app.accountJobs.whenIdle();
    expect(await outbox.messagesTo('ana@example.com')).toHaveLength(3);
    expect(await activationTokenFor(outbox, 'ana@example.com')).toBe(firstRun);
    const activated = await browser.call({ method: 'POST', url: 'user-mgmt/user/activate-token', json: { token: firstRun, password: ANA_PASSWORD } });
    expect(activated.json()).toEqual({ status: 'ACTIVATED' });
  });
});
