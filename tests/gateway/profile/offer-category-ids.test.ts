import { describe, expect, it } from 'vitest';
import { offerCategoryIdsFor } from '../../../gateway/profile/offer-category-ids';
import { realFixtures } from '../support/test-gateway';

/** ADR 0010: a saved offers_preference may name only the categories of the person's locale group (SPEC §7). */
describe('offerCategoryIdsFor', () => {
  it('gives the region custom categories in any of its languages, plus the language categories the app falls back to', async () => {
    const fixtures = await realFixtures();
    expect(offerCategoryIdsFor(fixtures, 'pt_br')).toEqual(expect.arrayContaining(['football', 'dining', 'groceries', 'hotels']));
    expect(offerCategoryIdsFor(fixtures, 'zh_hk')).toEqual(expect.arrayContaining(['festive', 'electronics']));
    expect(offerCategoryIdsFor(fixtures, 'fr_ca')).toEqual(expect.arrayContaining(['streaming', 'automotive']));
  });

  it('leaves out what another region offers', async () => {
    const fixtures = await realFixtures();
    expect(offerCategoryIdsFor(fixtures, 'en_us')).not.toContain('football');
    expect(offerCategoryIdsFor(fixtures, 'pt_br')).not.toContain('festive');
  });
});
