import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { findSecrets, knownPasswords, luhnValid, mask, outboxPasscodes, scanRegistered } from './secrecy-scan';

/**
 * README "Set-up": the secrecy scan `npm test` runs after the whole suite really finds a planted
 * secret of each kind, in a log and in a database dump, says where and what without printing it,
 * and leaves alone what only looks like one.
 */
const NO_KNOWN = { passwords: [], passcodes: [] };
const JWT_VALUE = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEiLCJleHAiOjE3OTk5OTk5OTl9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbi0xMjM0NTY';

describe('findSecrets', () => {
  it.each([
    ['a card number', '{"msg":"enrol","pan":"4111111111111111"}', 'card number', '4111111111111111'],
    ['a spaced card number', 'value=4111 1111 1111 1111 end', 'card number', '4111 1111 1111 1111'],
    ['a dashed 15-digit Amex', 'card 3782-822463-10005 ok', 'card number', '3782-822463-10005'],
    ['a JWT', `authorization ${JWT_VALUE}`, 'JWT', JWT_VALUE],
    [
      'a session cookie',
      'cookie: SESSION=Q2hhcmxpZS1zZXNzaW9uLXRva2VuLXZhbHVlLTEyMzQ1Njc4OTA; XSRF-TOKEN=x',
      'session or refresh token',
      'Q2hhcmxpZS1zZXNzaW9uLXRva2VuLXZhbHVlLTEyMzQ1Njc4OTA',
    ],
    ['a backup code', '{"msg":"enrolled","codes":["7AOE4-HINR3"]}', 'backup code', '7AOE4-HINR3'],
    [
      'a notice’s secure-account link (ADR 0021)',
      '{"url":"/eurobank/de_de/account/secure-account?siteid=eurobank&token=kX3v9QeR2mT7yB1nL5pZ8wC4dF6gH0jK2sA9uE3iO7q"}',
      'secure-account token',
      'kX3v9QeR2mT7yB1nL5pZ8wC4dF6gH0jK2sA9uE3iO7q',
    ],
    [
      'a refresh token field',
      '{"refresh_token":"cmVmcmVzaC10b2tlbi12YWx1ZS0wMTIzNDU2Nzg5"}',
      'session or refresh token',
      'cmVmcmVzaC10b2tlbi12YWx1ZS0wMTIzNDU2Nzg5',
    ],
  ])('finds %s, masked', (_name, text, kind, secret) => {
    const findings = findSecrets(`first line\n${text}`, 'app.log', NO_KNOWN);
    expect(findings).toContainEqual({ where: 'app.log', line: 2, kind, masked: mask(secret) });
    expect(JSON.stringify(findings)).not.toContain(secret.replace(/[ -]/g, '').slice(2, -2));
  });

  it('ADR 0001 capture_cvv: finds a card security code under its names, masked, and leaves bare three-digit numbers alone', () => {
    const text = ['{"body":{"assetType":"PAN","cvv":"737"}}', 'url /validation?siteId=sabana&cvc=4321', '{"statusCode":400,"responseTime":737}'].join('\n');
    const findings = findSecrets(text, 'app.log', NO_KNOWN);
    expect(findings).toEqual([
      { where: 'app.log', line: 1, kind: 'card security code', masked: mask('737') },
      { where: 'app.log', line: 2, kind: 'card security code', masked: mask('4321') },
    ]);
    expect(JSON.stringify(findings)).not.toMatch(/737|4321/);
  });

  it('finds the known passwords and passcodes', () => {
    const findings = findSecrets('{"body":{"password":"Firstbank#2025"}}\n{"msg":"code 482913 sent"}', 'app.log', {
      passwords: ['Firstbank#2025'],
      passcodes: ['482913'],
    });
    expect(findings.map(({ kind, line }) => `${line} ${kind}`)).toEqual(['1 password', '2 passcode']);
    expect(JSON.stringify(findings)).not.toMatch(/Firstbank#2025|482913/);
  });

  it('leaves alone what only looks like a secret: a wrong check digit, epoch milliseconds, hashes, a phone, a decimal, correlation ids (one beginning with the code, one whose digit groups pass the card check), the backup code example, an error code', () => {
    const text = [
      '{"cid":"482913a9-cddd-4353-bc27-966adea0c396","msg":"incoming request"}',
      // Its first three groups all digits, with a valid check digit read together (seen in a CI run's log).
      '{"cid":"52163002-0715-4769-bb01-cad4f6cb126a","msg":"request completed"}',
      '{"time":1763710412345,"pan":"4111111111111112"}',
      '{"token_hash":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}',
      '{"phone":"2025550143","responseTime":12.482913,"cid":"0193c6b2-4cde-7d1e-9f3a-1c2b3d4e5f60"}',
      'eyJhbGciOiJub25lIn0.e30.',
      '{"hint":"10 letters and digits, like ABCDE-FGH23","site":"promotions_en_us","code":"USER_LOCKED"}',
    ].join('\n');
    expect(findSecrets(text, 'app.log', { passwords: [], passcodes: ['482913'] })).toEqual([]);
  });

  it('checks digits as ISO/IEC 7812 does', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('378282246310005')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
  });
});

describe('knownPasswords', () => {
  it('holds the demo users’ passwords and the tests’ own', () => {
    const passwords = knownPasswords();
    expect(passwords).toEqual(expect.arrayContaining(['Firstbank#2025', 'Eurobank&Sicher9', 'Rewards#2025x']));
    expect(passwords.every((password) => password.length >= 8)).toBe(true);
  });
});

describe('scanRegistered', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('reports a planted card number in a stopped gateway’s database and its passcode in its log, never reading the outbox as a leak', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'secrecy-planted-'));
    dirs.push(dataDir);
    const pglite = await PGlite.create({ dataDir: join(dataDir, 'db') });
    await pglite.exec(
      "create table assets (id int, last_four text, note text); insert into assets values (1, '1111', 'ok'), (2, '1111', 'pan 4111111111111111')",
    );
    await pglite.close();
    mkdirSync(join(dataDir, 'outbox'));
    writeFileSync(join(dataDir, 'outbox', '1-a.json'), JSON.stringify({ to: 'a@example.com', subject: 'Your code', text: 'Your passcode is 730561.' }));
    const log = join(dataDir, 'gateway.log');
    writeFileSync(log, '{"level":30,"msg":"started"}\n{"level":30,"msg":"verify 730561"}\n');

    expect(outboxPasscodes(dataDir)).toEqual(['730561']);
    const report = await scanRegistered([{ log, dataDir }], { passwords: [] });
    expect(report.problems).toEqual([]);
    expect(report.scanned).toEqual([log, join(dataDir, 'db')]);
    expect(report.findings).toEqual([
      { where: log, line: 2, kind: 'passcode', masked: mask('730561') },
      { where: `database dump of ${join(dataDir, 'db')}`, line: 2, kind: 'card number', masked: mask('4111111111111111') },
    ]);
  }, 60_000);

  it('passes a clean gateway, and says so when a registered log is gone', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'secrecy-clean-'));
    dirs.push(dataDir);
    const log = join(dataDir, 'gateway.log');
    writeFileSync(log, '{"level":30,"msg":"signed in","cid":"abc"}\n');
    const report = await scanRegistered([{ log }, { log: join(dataDir, 'gone.log') }], { passwords: knownPasswords() });
    expect(report.findings).toEqual([]);
    expect(report.problems).toEqual([`log missing: ${join(dataDir, 'gone.log')}`]);
  });
});
