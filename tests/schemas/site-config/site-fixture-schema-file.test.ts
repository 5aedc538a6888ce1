import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { SITE_FIXTURE_SCHEMA_FILE, siteFixtureSchemaText } from '../../../schemas/site-config/fixture-format';

// README "Adding a site": the fixture format is published as a JSON Schema file that every site
// names in "$schema", so an editor completes and checks a fixture as it is typed. The file is
// written from fixture-format.ts and must never drift from it.
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SITES = resolve(REPO_ROOT, 'fixtures/sites');
const SITE_FILES = readdirSync(SITES).filter((name) => name.endsWith('.json'));
const published = readFileSync(resolve(REPO_ROOT, SITE_FIXTURE_SCHEMA_FILE), 'utf8');

describe(SITE_FIXTURE_SCHEMA_FILE, () => {
  it('is exactly what fixture-format.ts says (regenerate with `npm run sites:schema`)', () => {
    expect(published, `${SITE_FIXTURE_SCHEMA_FILE} disagrees with fixture-format.ts: run \`npm run sites:schema\``).toBe(siteFixtureSchemaText());
  });

  it.each(SITE_FILES)('is named by sites/%s through a "$schema" path that reaches it', (name) => {
    const fixture = JSON.parse(readFileSync(resolve(SITES, name), 'utf8')) as Record<string, unknown>;
    expect(fixture.$schema).toBe('../../schemas/site-config/site-fixture.schema.json');
    const target = resolve(dirname(resolve(SITES, name)), String(fixture.$schema));
    expect(existsSync(target) && target === resolve(REPO_ROOT, SITE_FIXTURE_SCHEMA_FILE)).toBe(true);
  });

  it('checks a fixture as a plain JSON Schema validator (an editor) does: every site passes, a misspelt key does not', () => {
    // An editor knows no ajv `discriminator`; it must still read the file, so unknown keywords are ignored.
    const validate = new Ajv({ strict: false, allErrors: true }).compile(JSON.parse(published) as object);
    for (const name of SITE_FILES) {
      expect(validate(JSON.parse(readFileSync(resolve(SITES, name), 'utf8'))), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const broken = JSON.parse(readFileSync(resolve(SITES, 'firstbank.json'), 'utf8')) as {
      siteFeatureConfigurations: Array<{ name: string; featureConfig: Record<string, string> }>;
    };
    broken.siteFeatureConfigurations.find((feature) => feature.name === 'cms')!.featureConfig.tennant = 'vpp';
    expect(validate(broken)).toBe(false);
  });
});
