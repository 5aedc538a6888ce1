import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildGateway } from '../../../gateway/server';
import { REPO_ROOT } from '../../e2e/support/paths';
import { realFixtures, stubDatabase } from '../support/test-gateway';

// README "Environment" (`SITE_GALLERY`): the gallery lists every site; it is off unless the setting turns it on.
describe('GET /api/site-gallery/sites', () => {
  it('lists every fixture site, found by listing the folder, when SITE_GALLERY is on', async () => {
    const app = await buildGateway({ db: stubDatabase, fixtures: await realFixtures(), siteGallery: true });
    const response = await app.inject({ method: 'GET', url: '/api/site-gallery/sites' });
    const siteIds = readdirSync(`${REPO_ROOT}/fixtures/sites`)
      .map((name) => name.replace(/\.json$/, ''))
      .sort();
    expect(response.json<{ sites: { siteId: string }[] }>().sites.map((site) => site.siteId)).toEqual(siteIds);
    await app.close();
  });

  it('is absent by default', async () => {
    const app = await buildGateway({ db: stubDatabase, fixtures: await realFixtures() });
    const response = await app.inject({ method: 'GET', url: '/api/site-gallery/sites' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'NOT_FOUND' });
    await app.close();
  });
});
