import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { FileOutbox } from '../../../gateway/mail/file-outbox';
import { routeByChannel, type OutgoingMessage } from '../../../gateway/mail/mailer';
import { MemoryOutbox } from '../../../gateway/mail/memory-outbox';
import { createSmtpMailer } from '../../../gateway/mail/smtp-mailer';
import { buildGateway } from '../../../gateway/server';
import { AdjustableClock } from '../../../gateway/time/clock';
import { realFixtures, stubDatabase } from '../support/test-gateway';

/** ADR 0008 "Mail and SMS": SMTP through nodemailer, the development outbox, and its page. */
const dataDir = await mkdtemp(join(tmpdir(), 'gateway-mail-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const CODE_MAIL: OutgoingMessage = { channel: 'email', to: 'emily@example.com', subject: 'Your one-time passcode', text: 'Your one-time passcode is 482913.' };

describe('SMTP (SMTP_URL set)', () => {
  it('delivers through nodemailer to an SMTP server: a local smtp-server sink on a random loopback port', async () => {
    const received: { from: string | undefined; to: string[]; data: string }[] = [];
    const sink = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          const from = session.envelope.mailFrom === false ? undefined : session.envelope.mailFrom.address;
          received.push({ from, to: session.envelope.rcptTo.map((rcpt) => rcpt.address), data });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    const { port } = sink.server.address() as AddressInfo;
    const mailer = createSmtpMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Rewards Portal <no-reply@portal.test>' });
    try {
      await mailer.send(CODE_MAIL);
    } finally {
      mailer.close();
      await new Promise<void>((resolve) => sink.close(resolve));
    }
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'no-reply@portal.test', to: ['emily@example.com'] });
    expect(received[0]?.data).toContain('Subject: Your one-time passcode');
    expect(received[0]?.data).toContain('482913');
  });
});

describe('the development outbox (no SMTP_URL)', () => {
  it('writes one JSON file per message under DATA_DIR/outbox and reads them back by recipient, newest first', async () => {
    const clock = new AdjustableClock();
    const outbox = new FileOutbox(join(dataDir, 'outbox'), clock);
    expect(await outbox.messagesTo('emily@example.com')).toEqual([]);
    await outbox.send(CODE_MAIL);
    clock.advance(1);
    await outbox.send({ ...CODE_MAIL, text: 'Your one-time passcode is 111222.' });
    await outbox.send({ channel: 'sms', to: '2025550143', subject: 'Your one-time passcode', text: 'Your one-time passcode is 333444.' });
    expect(await readdir(join(dataDir, 'outbox'))).toHaveLength(3);
    const messages = await outbox.messagesTo('Emily@Example.com');
    expect(messages.map((message) => message.text)).toEqual(['Your one-time passcode is 111222.', 'Your one-time passcode is 482913.']);
    const file = (await readdir(join(dataDir, 'outbox')))[0]!;
    expect(JSON.parse(await readFile(join(dataDir, 'outbox', file), 'utf8'))).toMatchObject({ id: expect.any(String), sentAt: expect.any(String) });
    expect((await outbox.messagesTo('2025550143'))[0]?.channel).toBe('sms');
  });

  it('a message half-written by a gateway killed mid-send (crash safety) is never read, and a finished send leaves only whole files', async () => {
    const dir = join(dataDir, 'outbox-after-crash');
    const outbox = new FileOutbox(dir, new AdjustableClock());
    await outbox.send(CODE_MAIL);
    // What a write cut short by SIGKILL leaves: the aside file, truncated.
    await writeFile(join(dir, `${Date.now()}-cut-short.json.partial`), '{"id":"cut-short","to":"emily@example.com","te');
    expect((await outbox.messagesTo('emily@example.com')).map((message) => message.text)).toEqual([CODE_MAIL.text]);
    await outbox.send(CODE_MAIL);
    expect((await readdir(dir)).filter((name) => name.endsWith('.json'))).toHaveLength(2);
  });

  it('routes e-mail to the e-mail mailer and SMS to the outbox', async () => {
    const clock = new AdjustableClock();
    const email = new MemoryOutbox(clock);
    const sms = new MemoryOutbox(clock);
    const mailer = routeByChannel(email, sms);
    await mailer.send(CODE_MAIL);
    await mailer.send({ ...CODE_MAIL, channel: 'sms', to: '2025550143' });
    expect(await email.messagesTo('emily@example.com')).toHaveLength(1);
    expect(await sms.messagesTo('2025550143')).toHaveLength(1);
    expect(await sms.messagesTo('emily@example.com')).toHaveLength(0);
  });

  it('GET dev-outbox/messages?to= answers the messages as JSON; 400 without `to`; absent when real mail is configured', async () => {
    const clock = new AdjustableClock();
    const outbox = new MemoryOutbox(clock);
    await outbox.send(CODE_MAIL);
    const withOutbox = await buildGateway({ db: stubDatabase, fixtures: await realFixtures(), auth: { clock, devOutbox: outbox } });
    const listed = await withOutbox.inject({ method: 'GET', url: '/api/dev-outbox/messages?to=emily%40example.com' });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ messages: [expect.objectContaining({ ...CODE_MAIL, id: expect.any(String), sentAt: expect.any(String) })] });
    expect((await withOutbox.inject({ method: 'GET', url: '/gateway/api/dev-outbox/messages' })).statusCode).toBe(400);
    await withOutbox.close();

    const smtp = await buildGateway({ db: stubDatabase, fixtures: await realFixtures(), auth: { clock, devOutbox: null, mailer: outbox } });
    const absent = await smtp.inject({ method: 'GET', url: '/api/dev-outbox/messages?to=emily%40example.com' });
    expect(absent.statusCode).toBe(404);
    await smtp.close();
  });
});
