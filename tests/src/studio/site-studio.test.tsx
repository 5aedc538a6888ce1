// @vitest-environment jsdom
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { publicFileIn } from '../../../gateway/site-files/site-file-check';
import { readSettingHelp } from '../../../gateway/features/site-studio/setting-help';
import { createStudioServer } from '../../../gateway/features/site-studio/studio-server';
import { Component as SiteStudio } from '../../../src/studio/SiteStudio';

/**
 * The studio page (docs/decisions/0027-site-studio.md) against its own server's routes, answered in process: the
 * editor's selects, the previews, and bad input each said at its place with nothing written.
 */
/** The repository: vitest runs from it (jsdom's import.meta.url is no file URL). */
const REPO_ROOT = process.cwd();
let studio: FastifyInstance;
let sitesDir: string;

beforeAll(async () => {
  sitesDir = mkdtempSync(join(tmpdir(), 'studio-page-'));
  studio = await createStudioServer({
    sitesDir,
    bundledSitesDir: resolve(REPO_ROOT, 'fixtures/sites'),
    contentDir: resolve(REPO_ROOT, 'fixtures/content'),
    publicFileExists: publicFileIn(resolve(REPO_ROOT, 'public')),
    help: readSettingHelp(resolve(REPO_ROOT, 'docs/decisions/0001-site-fixture-format.md')),
    now: () => new Date('2026-06-01T00:00:00Z'),
    distDir: join(sitesDir, 'no-build'),
  });
  vi.stubGlobal('fetch', async (url: string, init?: { method?: string; body?: string }) => {
    const answer = await studio.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url,
      ...(init?.body === undefined ? {} : { payload: init.body, headers: { 'content-type': 'application/json' } }),
    });
    return { ok: answer.statusCode < 400, status: answer.statusCode, json: async (): Promise<unknown> => answer.json() };
  });
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await studio.close();
  rmSync(sitesDir, { recursive: true, force: true });
});
afterEach(cleanup);

const CHECK_TIMEOUT = { timeout: 15_000 };
// Found by selector: role queries over the whole studio (a form per feature, a phone per locale) take seconds in jsdom.
function group(name: string): HTMLElement {
  const found = [...document.querySelectorAll<HTMLElement>('fieldset')].find((fieldset) => fieldset.querySelector(':scope > legend')?.textContent === name);
  if (found === undefined) throw new Error(`no group ${name}`);
  return found;
}
function region(name: string): HTMLElement {
  const found = document.querySelector<HTMLElement>(`[role="region"][aria-label="${name}"]`);
  if (found === null) throw new Error(`no region ${name}`);
  return found;
}
const verdict = () => screen.getByText(/^sites:check:/);
const jsonView = () => document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Site file (JSON)"]')!;
const tab = (name: string) => [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((button) => button.textContent === name)!;

async function openStudio() {
  render(<SiteStudio />);
  await waitFor(() => expect(verdict().textContent).toContain('passes'), CHECK_TIMEOUT);
}

/** The setting's text box in a feature's group, typed into as an author does. */
function typeSetting(feature: string, key: string, value: string) {
  fireEvent.change(within(group(feature)).getByRole('textbox', { name: key }), { target: { value } });
}

describe('the site studio page', () => {
  it('names what each level code means in the editor’s level selects, as ADR 0001 says it', async () => {
    await openStudio();
    const pan = within(group('user_asset_profile')).getByRole('combobox', { name: 'pan' });
    const options = within(pan)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toContain('"0" Mandatory: the field is on registration and required');
    expect(options).toContain('"3" ProfileOptional: left out of registration and offered, optional, on edit-profile');
    const display = within(group('user_enrollment')).getByRole('combobox', { name: 'privacy_policy_display' });
    expect(
      within(display)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toContain('"A": shows the pp checkbox and requires it');
  }, 30_000);

  it('previews the card forms in each locale: the add-pan block at registration, the standalone form on a vpp site, each running the card rule', async () => {
    await openStudio();
    fireEvent.click(tab('card forms'));
    const classic = region('card forms in en_us');
    expect(within(classic).getByText('At registration (add-pan)')).toBeTruthy();
    expect(within(classic).getAllByRole('textbox', { name: /Card number/ })).toHaveLength(2);

    fireEvent.change(document.querySelector('select[aria-label="Start from"]')!, { target: { value: 'site:vppcards' } });
    await waitFor(() => expect(jsonView().value).toContain('"siteId": "vppcards"'));
    const vpp = region('card forms in en_gb');
    expect(within(vpp).getByText('Adding a card later: the standalone form (cms tenant vpp)')).toBeTruthy();
    const standalone = within(vpp).getByRole('checkbox').closest('form');
    if (standalone === null) throw new Error('the standalone form has no terms box');
    fireEvent.change(within(standalone).getByRole('textbox'), { target: { value: '4111 1111 1111 1112' } });
    fireEvent.click(within(standalone).getByRole('checkbox'));
    fireEvent.submit(standalone);
    await waitFor(() => expect(within(standalone).getByText(/valid/i)).toBeTruthy());
    fireEvent.change(within(standalone).getByRole('textbox'), { target: { value: '4111 1111 1111 1111' } });
    fireEvent.submit(standalone);
    await waitFor(() => expect(within(vpp).getByRole('status').textContent).toMatch(/accepts this card number in the standalone form/));
  }, 30_000);

  it('bad input, each at its place, nothing written: a regexp that does not compile, an unknown feature, a siteId with a path, broken JSON', async () => {
    await openStudio();
    typeSetting('user_enrollment', 'postal_code_regexp', '^(\\d{4}-\\d{3}$');
    await waitFor(
      () =>
        expect(within(group('user_enrollment')).getByText(/Expected a regular expression that compiles/).textContent).toMatch(
          /postal_code_regexp|Invalid regular expression/,
        ),
      CHECK_TIMEOUT,
    );
    typeSetting('user_enrollment', 'postal_code_regexp', '');

    const site = JSON.parse(jsonView().value) as { siteFeatureConfigurations: { name: string }[] };
    site.siteFeatureConfigurations.push({ name: 'loyalty_points' });
    fireEvent.change(jsonView(), { target: { value: JSON.stringify(site, null, 2) } });
    await waitFor(() => expect(within(group('loyalty_points')).getByText(/Not a feature of the format/)).toBeTruthy());
    await waitFor(
      () => expect(within(group('loyalty_points')).getByRole('list', { name: 'About loyalty_points' }).textContent).toMatch(/loyalty_points/),
      CHECK_TIMEOUT,
    );
    fireEvent.click(within(group('loyalty_points')).getByRole('button', { name: 'Remove loyalty_points' }));

    typeSetting('The site', 'siteId', '../etc/passwd');
    // The pattern, said once: not also a file name the author never chose.
    await waitFor(
      () => expect(group('The site').querySelector('.field--invalid')?.textContent).toMatch(/Expected a site id: .*got "\.\.\/etc\/passwd"$/),
      CHECK_TIMEOUT,
    );
    expect(group('The site').querySelector('.field--invalid')?.textContent).not.toMatch(/unnamed/);
    expect([...document.querySelectorAll('button')].find((button) => button.textContent === 'Show the diff')?.hasAttribute('disabled')).toBe(true);

    fireEvent.change(jsonView(), { target: { value: jsonView().value.replace('"theme": "classic",', '"theme": "classic"') } });
    expect(document.querySelector('#studio-json-error')?.textContent).toMatch(/^The JSON view is not a site file at line \d+, column \d+/);
    // The form keeps the last site that parsed.
    expect(within(group('The site')).getByRole<HTMLInputElement>('textbox', { name: 'siteId' }).value).toBe('../etc/passwd');

    // JSON the form cannot draw (a feature that is null): said under the JSON view, the page and its text kept.
    const shaped = JSON.parse(jsonView().value.replace('"theme": "classic"', '"theme": "classic",')) as { siteFeatureConfigurations: unknown[] };
    shaped.siteFeatureConfigurations.unshift(null);
    fireEvent.change(jsonView(), { target: { value: JSON.stringify(shaped, null, 2) } });
    expect(document.querySelector('#studio-json-error')?.textContent).toMatch(/siteFeatureConfigurations\[0\] is not a feature/);
    expect(group('user_enrollment')).toBeTruthy();
    expect(jsonView().value).toContain('null');
    expect(readdirSync(sitesDir)).toEqual([]);
  }, 60_000);

  it('says a warning is a warning, and a "Saved" goes away with the next edit', async () => {
    await openStudio();
    // A locale with no content file of its own passes with a warning (its texts come from en_us).
    const site = JSON.parse(jsonView().value) as { siteFeatureConfigurations: { name: string; featureConfig?: Record<string, string> }[] };
    site.siteFeatureConfigurations = site.siteFeatureConfigurations.filter((feature) => feature.name !== 'site_locales');
    site.siteFeatureConfigurations.push({ name: 'site_locales', featureConfig: { locales: 'nb_no en_us' } });
    fireEvent.change(jsonView(), { target: { value: JSON.stringify(site, null, 2) } });
    await waitFor(() => expect(verdict().textContent).toMatch(/passes, \d+ warnings?/), CHECK_TIMEOUT);
    expect(within(group('site_locales')).getByText(/^Warning \(the site still passes\): Expected a content file for nb_no/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Show the diff' }));
    fireEvent.click(await screen.findByRole('button', { name: /^Save / }, CHECK_TIMEOUT));
    await waitFor(() => expect(screen.getByText(/^Saved /)).toBeTruthy(), CHECK_TIMEOUT);
    typeSetting('The site', 'name', 'Fjord Rewards');
    await waitFor(() => expect(screen.queryByText(/^Saved /)).toBeNull());
  }, 60_000);
});
