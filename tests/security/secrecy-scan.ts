import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { LOG_DIR, registerGateway, SECRECY_REGISTRY, type RegisteredGateway } from './secrecy-registry';

/**
 * The secrecy check (README "Set-up"), DESIGN "Contracts": after a whole `npm test` run, no card
 * number, card security code, password, passcode, backup code or token (a notice's secure-account link's
 * included) appears in any gateway log or database dump. `npm test` runs
 * this with `--reset` before vitest and plainly after it. Read: every log and database a gateway
 * registered (tests/e2e/support/portal-process.ts), each PGlite data dir copied aside and dumped
 * once its gateway has stopped, and the PostgreSQL test database when one was used. Not read: the
 * development outbox (`DATA_DIR/outbox/`), which is the mail channel itself; its passcodes are what
 * the logs and dumps are searched for. In-process test gateways log to memory only (logger off or
 * tests/gateway/support/capturing-logger.ts, checked by the log-secrecy tests) and drop their
 * databases, so they leave nothing to scan.
 */

export type SecretKind =
  'card number' | 'password' | 'JWT' | 'session or refresh token' | 'secure-account token' | 'passcode' | 'backup code' | 'card security code';

export interface Finding {
  where: string;
  line: number;
  kind: SecretKind;
  /** The secret masked: its first and last two characters and its length, never the value. */
  masked: string;
}

export interface KnownSecrets {
  passwords: readonly string[];
  passcodes: readonly string[];
}

export function mask(secret: string): string {
  return secret.length <= 6
    ? `${'*'.repeat(secret.length)} (${secret.length} chars)`
    : `${secret.slice(0, 2)}${'*'.repeat(secret.length - 4)}${secret.slice(-2)} (${secret.length} chars)`;
}

/** ISO/IEC 7812: the check digit of every payment card number. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * 13 to 19 digits, optionally in groups split by single spaces or dashes, not inside a longer word
 * or number. Only major industry identifiers 2 to 6 (the card networks) count: a 13-digit epoch in
 * milliseconds starts with 1 and is no card number.
 */
const DIGIT_RUN = /(?<![0-9A-Za-z.])\d(?:[ -]?\d){12,18}(?![0-9A-Za-z])/g;
/**
 * A UUID (the gateway's correlation ids): hex in dashed groups. Its first three groups are all digits about once in
 * two thousand ids, and then read as a dashed 16-digit number, one in ten with a valid check digit; the digit scan
 * skips them.
 */
const UUID = /(?<![0-9A-Za-z-])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![0-9A-Za-z-])/g;
/**
 * A backup code as the gateway hands it out (gateway/auth/backup-codes.ts): two groups of
 * five base32 characters. Never in a log or a dump (only keyed hashes are stored); the one shown as the
 * example in the content ("like ABCDE-FGH23") is no code.
 */
const BACKUP_CODE = /(?<![A-Za-z0-9-])[A-Z2-7]{5}-[A-Z2-7]{5}(?![A-Za-z0-9-])/g;
const BACKUP_CODE_EXAMPLE = 'ABCDE-FGH23';
/** A signed JWT: header and payload JSON objects, and a signature. */
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g;
/** A session-bearing cookie, a bearer credential, or a token-named field with a raw value (hashes are named `*_hash`). */
const TOKEN_PAIRS = [
  /\b(?:SESSION|LOGIN_CHALLENGE|TRUSTED_DEVICE|gmap_sso_binding|gmap_saml_binding)=([A-Za-z0-9_-]{20,})/g,
  /\bBearer\s+([A-Za-z0-9_.-]{20,})/g,
  /"(?:refresh_token|access_token|id_token|session_token|sessionToken|refreshToken|accessToken|activation_token|activationToken|token)"\s*:\s*"([A-Za-z0-9_.-]{20,})"/g,
];

/**
 * The token of an account notice's "this wasn't me" link (ADR 0021 "Telling the holder"): it ends every session of
 * the account, so it lives in the message alone (only its SHA-256 is stored). In a log it would travel as the link's
 * query or as the secure-account call's `token`, which TOKEN_PAIRS finds as any other token-named field.
 */
const SECURE_ACCOUNT_LINK = /secure-account\?(?:[^\s"]*&)?token=([A-Za-z0-9_-]{20,})/g;

/**
 * A card security code (ADR 0001 `capture_cvv`: sent to the validation call only, never kept or logged) under
 * the names it travels by: a JSON member or a query parameter `cvv`, `cvc`, `cvv2` or `csc` with 3 or 4
 * digits. Three digits alone are everywhere (statuses, times), so only a named one is a finding; a column of
 * that name in a dump shows as `"cvv":"123"` in the row's JSON.
 */
const CVV_PAIRS = [/"(?:cvv2?|cvc|csc)"\s*:\s*"?([0-9]{3,4})(?![0-9])/gi, /\b(?:cvv2?|cvc|csc)=([0-9]{3,4})(?![0-9])/gi];

export function findSecrets(text: string, where: string, known: KnownSecrets): Finding[] {
  const findings: Finding[] = [];
  // Six digits inside a longer hex run (a correlation id, a hash) are not a code: they collide by chance.
  const passcodes = known.passcodes.map((code) => new RegExp(`(?<![0-9A-Fa-f.-])${code}(?![0-9A-Fa-f-])`));
  text.split('\n').forEach((content, index) => {
    const line = index + 1;
    const add = (kind: SecretKind, secret: string) => findings.push({ where, line, kind, masked: mask(secret) });
    for (const match of content.replaceAll(UUID, 'uuid').matchAll(DIGIT_RUN)) {
      const digits = match[0].replace(/[ -]/g, '');
      if (digits.length >= 13 && digits.length <= 19 && /^[2-6]/.test(digits) && luhnValid(digits)) add('card number', match[0]);
    }
    for (const password of known.passwords) if (content.includes(password)) add('password', password);
    for (const match of content.matchAll(JWT)) add('JWT', match[0]);
    for (const match of content.matchAll(BACKUP_CODE)) if (match[0] !== BACKUP_CODE_EXAMPLE) add('backup code', match[0]);
    for (const pattern of TOKEN_PAIRS) for (const match of content.matchAll(pattern)) add('session or refresh token', match[1]!);
    for (const match of content.matchAll(SECURE_ACCOUNT_LINK)) add('secure-account token', match[1]!);
    for (const pattern of CVV_PAIRS) for (const match of content.matchAll(pattern)) add('card security code', match[1]!);
    passcodes.forEach((pattern, at) => {
      if (pattern.test(content)) add('passcode', known.passcodes[at]!);
    });
  });
  return findings;
}

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** SPEC §5 password rules: what a real password of the tests looks like (not a field name or a short junk value). */
const PASSWORD_SHAPE = /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z])(?=.*[^A-Za-z0-9])\S{8,64}$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Every password the demo users (fixtures/demo-users.json) and the tests use: the fixture's, and
 * every string literal the test sources assign to something named *password* (or pass as one),
 * so a new test's password is searched for with no edit here.
 */
export function knownPasswords(): string[] {
  const demoUsers = JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures/demo-users.json'), 'utf8')) as { password?: string }[];
  const found = new Set(demoUsers.map((user) => user.password).filter((password): password is string => typeof password === 'string'));
  const assignment = /password\w*['"]?\s*[:=,]\s*(['"`])((?:(?!\1)[^\\\n])+)\1/gi;
  for (const file of sourceFiles(join(REPO_ROOT, 'tests'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(assignment)) {
      const value = match[2]!;
      if (!value.includes('${') && PASSWORD_SHAPE.test(value)) found.add(value);
    }
  }
  return [...found];
}

/** The 6-digit codes of every message in a development outbox (the mail channel; read, never scanned). */
export function outboxPasscodes(dataDir: string): string[] {
  const dir = join(dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  const codes = new Set<string>();
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.json'))) {
    const message = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { text?: string; subject?: string };
    for (const match of `${message.subject ?? ''}\n${message.text ?? ''}`.matchAll(/(?<!\d)(\d{6})(?!\d)/g)) codes.add(match[1]!);
  }
  return [...codes];
}

interface Queryable {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the row type each query expects, as the gateway's Queryable has it
  query<T>(sql: string): Promise<{ rows: T[] }>;
}

function rowText(row: Record<string, unknown>): string {
  return JSON.stringify(row, (_key, value: unknown) => (value instanceof Uint8Array ? `\\x${Buffer.from(value).toString('hex')}` : value));
}

/** Every table of every schema but the system ones, one line per row: `schema.table {row as JSON}`. */
async function dumpTables(db: Queryable): Promise<string> {
  const tables = await db.query<{ table_schema: string; table_name: string }>(
    "select table_schema, table_name from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') and table_schema not like 'pg_%' order by 1, 2",
  );
  const lines: string[] = [];
  for (const { table_schema: schema, table_name: table } of tables.rows) {
    const rows = await db.query<Record<string, unknown>>(`select * from "${schema.replace(/"/g, '""')}"."${table.replace(/"/g, '""')}"`);
    for (const row of rows.rows) lines.push(`${schema}.${table} ${rowText(row)}`);
  }
  return lines.join('\n');
}

/** A stopped gateway's PGlite data dir, dumped from a copy so the original is left exactly as it was. */
async function dumpPgliteDir(dbDir: string): Promise<string> {
  const copy = mkdtempSync(join(tmpdir(), 'secrecy-scan-'));
  try {
    cpSync(dbDir, copy, { recursive: true });
    const pglite = await PGlite.create({ dataDir: copy });
    try {
      return await dumpTables(pglite);
    } finally {
      await pglite.close();
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * A database its test drops when done (the two-instance pair's own PostgreSQL database): dumped to a
 * file under the log folder first and registered, so the scan after the whole run still reads it.
 */
export async function keepDumpForScan(url: string, name: string, dataDir: string): Promise<void> {
  mkdirSync(LOG_DIR, { recursive: true });
  const file = join(LOG_DIR, `${name}.dump.txt`);
  writeFileSync(file, await dumpPostgres(url));
  registerGateway({ log: file, dataDir });
}

async function dumpPostgres(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await dumpTables(client);
  } finally {
    await client.end();
  }
}

export interface ScanReport {
  findings: Finding[];
  scanned: string[];
  problems: string[];
}

/** PGlite dumps at once: each starts its own WebAssembly PostgreSQL, which is most of the cost. */
const DUMPS_AT_ONCE = 2;

export async function scanRegistered(
  entries: readonly RegisteredGateway[],
  options: { postgresUrl?: string; passwords: readonly string[] },
): Promise<ScanReport> {
  const report: ScanReport = { findings: [], scanned: [], problems: [] };
  const allPasscodes = new Set<string>();
  /** Per data dir (two instances or a restart share one): the passcodes its outbox sent. */
  const dataDirs = new Map<string, string[]>();
  for (const entry of entries) {
    // A gateway's passcodes are searched for in its own log and database (six digits collide too easily across runs).
    const passcodes = entry.dataDir ? outboxPasscodes(entry.dataDir) : [];
    passcodes.forEach((code) => allPasscodes.add(code));
    if (existsSync(entry.log)) {
      report.findings.push(...findSecrets(readFileSync(entry.log, 'utf8'), entry.log, { passwords: options.passwords, passcodes }));
      report.scanned.push(entry.log);
    } else report.problems.push(`log missing: ${entry.log}`);
    if (!entry.databaseUrl && entry.dataDir && existsSync(join(entry.dataDir, 'db'))) dataDirs.set(entry.dataDir, passcodes);
  }
  const queue = [...dataDirs];
  const dumpNext = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const [dataDir, passcodes] = next;
      const dbDir = join(dataDir, 'db');
      try {
        report.findings.push(...findSecrets(await dumpPgliteDir(dbDir), `database dump of ${dbDir}`, { passwords: options.passwords, passcodes }));
        report.scanned.push(dbDir);
      } catch (error) {
        report.problems.push(`could not dump ${dbDir}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: DUMPS_AT_ONCE }, dumpNext));
  const postgresUrls = new Set([options.postgresUrl, ...entries.map((entry) => entry.databaseUrl)].filter((url): url is string => Boolean(url)));
  for (const url of postgresUrls) {
    const where = `database dump of ${url.replace(/\/\/[^@/]*@/, '//')}`;
    try {
      report.findings.push(...findSecrets(await dumpPostgres(url), where, { passwords: options.passwords, passcodes: [...allPasscodes] }));
      report.scanned.push(where);
    } catch (error) {
      // Databases of their own (two-instance tests) are dropped by their test, after `keepDumpForScan`.
      if (!/does not exist/.test((error as Error).message)) report.problems.push(`could not dump ${where}: ${(error as Error).message}`);
    }
  }
  return report;
}

export function readRegistry(path = SECRECY_REGISTRY): RegisteredGateway[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RegisteredGateway);
}

async function main(): Promise<void> {
  if (process.argv.includes('--reset')) {
    mkdirSync(dirname(SECRECY_REGISTRY), { recursive: true });
    writeFileSync(SECRECY_REGISTRY, '');
    return;
  }
  const started = Date.now();
  const report = await scanRegistered(readRegistry(), { postgresUrl: process.env.TEST_DATABASE_URL || undefined, passwords: knownPasswords() });
  for (const problem of report.problems) console.warn(`secrecy scan: ${problem}`);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (report.findings.length > 0) {
    for (const finding of report.findings.slice(0, 50)) console.error(`${finding.where}:${finding.line}: ${finding.kind} ${finding.masked}`);
    console.error(`secrecy scan: ${report.findings.length} secret(s) in ${report.scanned.length} logs and dumps (${seconds} s)`);
    process.exitCode = 1;
    return;
  }
  console.info(`secrecy scan: no card number, password, passcode or token in ${report.scanned.length} logs and dumps (${seconds} s)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
