import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicFileIn } from '../../../gateway/site-files/site-file-check';
import { readSettingHelp } from '../../../gateway/features/site-studio/setting-help';
import { SITE_TEMPLATES } from '../../../gateway/features/site-studio/site-templates';
import { createStudioServer, studioStartRefusals } from '../../../gateway/features/site-studio/studio-server';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** The template as a new author's site: the Portuguese postal code of the trap, here written right. */
function portugueseSite(siteId: string, regexp: string): string {
  const site = structuredClone(SITE_TEMPLATES[0]!.site);
  site.siteId = siteId;
  site.name = 'Lisboa Rewards';
  const enrollment = site.siteFeatureConfigurations.find((feature) => feature.name === 'user_enrollment')!;
  enrollment.featureConfig = { ...enrollment.featureConfig, postal_code_mask: '0000-000', postal_code_regexp: regexp, postal_code_example: '1000-001' };
  return JSON.stringify(site, null, 2);
}

describe('the site studio save (docs/decisions/0027-site-studio.md)', () => {
  let app: FastifyInstance;
  let sitesDir: string;

  beforeAll(async () => {
    sitesDir = mkdtempSync(join(tmpdir(), 'studio-sites-'));
    app = await createStudioServer({
      sitesDir,
      bundledSitesDir: resolve(REPO_ROOT, 'fixtures/sites'),
      contentDir: resolve(REPO_ROOT, 'fixtures/content'),
      publicFileExists: publicFileIn(resolve(REPO_ROOT, 'public')),
      help: readSettingHelp(resolve(REPO_ROOT, 'docs/decisions/0001-site-fixture-format.md')),
      now: () => new Date('2026-06-01T00:00:00Z'),
      distDir: join(sitesDir, 'no-build'),
    });
  });
  afterAll(async () => {
    await app.close();
    rmSync(sitesDir, { recursive: true, force: true });
  });

  it('refuses to start in production, as the outbox reader does (ADR 0018), and starts in development', () => {
    expect(studioStartRefusals({ NODE_ENV: 'production' })[0]).toMatch(/refuses to start in production mode \(NODE_ENV=production\)/);
    expect(studioStartRefusals({})[0]).toMatch(/NODE_ENV=unset/);
    expect(studioStartRefusals({ NODE_ENV: 'development' })).toEqual([]);
  });

  it('serves each setting its ADR 0001 "what it does" text as help', async () => {
    const answer = await app.inject({ method: 'GET', url: '/api/site-studio/start' });
    const help = answer.json<{ help: { settings: Record<string, Record<string, string>>; values: Record<string, Record<string, string>> } }>().help;
    expect(help.settings.user_enrollment?.postal_code_regexp).toBeDefined();
    expect(help.settings.site_brand?.primary_color).toMatch(/header and primary buttons/);
    // What each level code does, for the editor's level selects.
    expect(Object.keys(help.values.level ?? {}).sort()).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it.each(['../../etc/passwd', '..%2Fx', 'a/b', 'Upper', '.hidden', 'x'.repeat(65)])(
    'refuses the siteId %j: SITE_ID_INVALID, nothing written',
    async (siteId) => {
      for (const [method, url] of [
        ['PUT', `/api/site-studio/sites/${encodeURIComponent(siteId)}`],
        ['POST', `/api/site-studio/sites/${encodeURIComponent(siteId)}/diff`],
      ] as const) {
        const answer = await app.inject({ method, url, payload: { text: portugueseSite('lisboa', '^\\d{4}-?\\d{3}$'), version: null } });
        expect(answer.statusCode).toBe(400);
        expect(answer.json()).toMatchObject({ error: 'SITE_ID_INVALID', field: 'siteId' });
      }
      expect(readdirSync(sitesDir)).toEqual([]);
    },
  );

  it('refuses a file sites:check refuses (a regexp of 5+3 digits under the 4+3 mask: no value fills both), naming the path, nothing written', async () => {
    const answer = await app.inject({
      method: 'PUT',
      url: '/api/site-studio/sites/lisboa',
      payload: { text: portugueseSite('lisboa', '^\\d{5}-\\d{3}$'), version: null },
    });
    expect(answer.statusCode).toBe(422);
    const body = answer.json<{ error: string; mistakes: { path: string }[] }>();
    expect(body.error).toBe('CHECK_FAILED');
    expect(body.mistakes.map(({ path }) => path)).toEqual([expect.stringMatching(/^\$\.siteFeatureConfigurations\[3\]\.featureConfig\.postal_code_regexp$/)]);
    expect(readdirSync(sitesDir)).toEqual([]);
  });

  it('refuses an unknown feature and a regexp that does not compile, each at its JSON path, nothing written', async () => {
    const site = JSON.parse(portugueseSite('lisboa', '^(\\d{4}-\\d{3}$')) as { siteFeatureConfigurations: { name: string }[] };
    site.siteFeatureConfigurations.push({ name: 'loyalty_points' });
    const answer = await app.inject({ method: 'PUT', url: '/api/site-studio/sites/lisboa', payload: { text: JSON.stringify(site), version: null } });
    expect(answer.statusCode).toBe(422);
    const paths = answer.json<{ mistakes: { path: string; expected: string }[] }>().mistakes.map(({ path, expected }) => `${path} ${expected}`);
    expect(paths).toContainEqual(
      expect.stringMatching(/^\$\.siteFeatureConfigurations\[3\]\.featureConfig\.postal_code_regexp a regular expression that compiles/),
    );
    expect(paths).toContainEqual(expect.stringMatching(/^\$\.siteFeatureConfigurations\[9\]/));
    expect(readdirSync(sitesDir)).toEqual([]);
  });

  it('refuses broken JSON and a siteId other than the file name', async () => {
    const broken = await app.inject({ method: 'PUT', url: '/api/site-studio/sites/lisboa', payload: { text: '{ "siteId": ', version: null } });
    expect(broken.json()).toMatchObject({ error: 'CHECK_FAILED', mistakes: [{ expected: 'valid JSON' }] });
    const other = await app.inject({
      method: 'PUT',
      url: '/api/site-studio/sites/lisboa',
      payload: { text: portugueseSite('porto', '^\\d{4}-?\\d{3}$'), version: null },
    });
    expect(other.json()).toMatchObject({ error: 'SITE_ID_MISMATCH', field: '$.siteId' });
    expect(readdirSync(sitesDir)).toEqual([]);
  });

  it('shows the diff, saves formatted with $schema, and refuses a file changed on disk since it was opened (the other change kept)', async () => {
    const text = portugueseSite('lisboa', '^\\d{4}-?\\d{3}$');
    const diff = await app.inject({ method: 'POST', url: '/api/site-studio/sites/lisboa/diff', payload: { text, version: null } });
    expect(diff.statusCode).toBe(200);
    expect(diff.json<{ isNew: boolean; diff: { kind: string }[] }>()).toMatchObject({ isNew: true });
    const saved = await app.inject({ method: 'PUT', url: '/api/site-studio/sites/lisboa', payload: { text, version: null } });
    expect(saved.statusCode).toBe(200);
    const written = readFileSync(join(sitesDir, 'lisboa.json'), 'utf8');
    expect(JSON.parse(written)).toMatchObject({ $schema: '../../schemas/site-config/site-fixture.schema.json', siteId: 'lisboa' });
    expect(saved.json()).toMatchObject({ version: digest(written) });

    const again = await app.inject({ method: 'PUT', url: '/api/site-studio/sites/lisboa', payload: { text, version: null } });
    expect(again.json()).toMatchObject({ error: 'FILE_CHANGED', field: 'version' });

    const otherChange = written.replace('Lisboa Rewards', 'Lisboa Rewards (edited elsewhere)');
    writeFileSync(join(sitesDir, 'lisboa.json'), otherChange);
    const stale = await app.inject({ method: 'PUT', url: '/api/site-studio/sites/lisboa', payload: { text, version: digest(written) } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ message: string }>().message).toMatch(/changed on disk since you opened it: nothing was written/);
    expect(readFileSync(join(sitesDir, 'lisboa.json'), 'utf8')).toBe(otherChange);
    expect(readdirSync(sitesDir)).toEqual(['lisboa.json']);
  });

  it('answers the check with the simulated values the preview types', async () => {
    // ADR 0005: the regexp written as the holder sees the value ("1000-001") is met by the value as shown.
    const answer = await app.inject({ method: 'POST', url: '/api/site-studio/check', payload: { text: portugueseSite('lisboa', '^\\d{4}-\\d{3}$') } });
    const body = answer.json<{ mistakes: unknown[]; values: Record<string, Record<string, Record<string, unknown>>> }>();
    expect(body.mistakes).toEqual([]);
    expect(body.values.en_us?.registration?.address).toMatchObject({ zipcode: expect.stringMatching(/^\d{7}$/) });
  });
});
