import { existsSync } from 'node:fs';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../../schemas/forms/build-form-schema';
import { FORM_NAMES } from '../../../schemas/forms/form-names';
import { listSiteFixtures, readDefaultSite, stableJson } from '../../support/site-fixtures';

// README "Adding a site": one snapshot per fixture site per form, discovered by listing fixtures/sites/,
// so a new fixture gets its snapshots with no test edit (they are written on the first local run;
// CI refuses a missing one, so a reviewer has looked at every site's forms).
const sites = [...listSiteFixtures(), readDefaultSite()];
const SNAPSHOT_LOCALE = 'en_us';

/** Strict ajv knows our one custom keyword, so anything else unknown in a schema is an error. */
function strictAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true });
  ajv.addKeyword({
    keyword: 'x-rule',
    metaSchema: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string' }, options: { type: 'object' } },
    },
  });
  return ajv;
}

/**
 * Under CI vitest writes no snapshot (update state "none") and would call a missing one "mismatched";
 * a new site's author is told instead what to do (README "Adding a site").
 */
function refuseMissingSnapshotUnderCi(siteId: string, file: string): void {
  const { snapshotState } = expect.getState();
  if (snapshotState.snapshotUpdateState !== 'none' || existsSync(new URL(file, import.meta.url))) return;
  throw new Error(`new site ${siteId}: run \`npm test\` locally and commit tests/schemas/forms/__snapshots__/${siteId}/ (CI never writes a missing snapshot)`);
}

describe.each(sites.map((site) => [site.siteId, site] as const))('site %s', (siteId, site) => {
  it.each(FORM_NAMES)('%s form matches its snapshot', async (form) => {
    refuseMissingSnapshotUnderCi(siteId, `./__snapshots__/${siteId}/${form}.json`);
    await expect(stableJson(buildFormSchema(site, SNAPSHOT_LOCALE, form))).toMatchFileSnapshot(`./__snapshots__/${siteId}/${form}.json`);
  });

  it.each(FORM_NAMES)('%s schema is valid JSON Schema and compiles in strict ajv', (form) => {
    const { schema } = buildFormSchema(site, SNAPSHOT_LOCALE, form);
    const ajv = strictAjv();
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });
});
