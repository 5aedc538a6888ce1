import { readdirSync, readFileSync } from 'node:fs';
import type { SiteConfig } from '../../schemas/site-config/types';
import { REPO_ROOT } from '../e2e/support/paths';

/** Every site fixture, found by listing the folder: a new site is covered with no test edit. */
export function listSiteFixtures(): SiteConfig[] {
  const dir = `${REPO_ROOT}/fixtures/sites`;
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(`${dir}/${name}`, 'utf8')) as SiteConfig);
}

export function readSiteFixture(siteId: string): SiteConfig {
  return JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/sites/${siteId}.json`, 'utf8')) as SiteConfig;
}

export function readDefaultSite(): SiteConfig {
  return JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/default-site.json`, 'utf8')) as SiteConfig;
}

/** JSON with object keys sorted at every level, so a snapshot diff shows only real changes. */
export function stableJson(value: unknown): string {
  const sortKeys = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(sortKeys);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(
        Object.keys(node)
          .sort()
          .map((key) => [key, sortKeys((node as Record<string, unknown>)[key])]),
      );
    }
    return node;
  };
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}
