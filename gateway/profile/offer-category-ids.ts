import { localeRegion } from '../../schemas/locales/locale-table';
import type { Fixtures } from '../site-files/load-fixtures';

/** SPEC §7: categories are chosen by language code, except Chinese which needs the full locale. */
function categoryKey(locale: string): string {
  const language = locale.slice(0, 2);
  return language === 'zh' ? locale : language;
}

type CategoryLists = Record<string, Record<string, unknown>>;

const customizedByFixtures = new WeakMap<Fixtures, CategoryLists>();

/** The customized file is served verbatim and only checked to be JSON; a list of another shape is ignored. */
function customizedCategories(fixtures: Fixtures): CategoryLists {
  let parsed = customizedByFixtures.get(fixtures);
  if (!parsed) {
    const value = JSON.parse(fixtures.customizedCategoriesRaw) as unknown;
    parsed = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as CategoryLists) : {};
    customizedByFixtures.set(fixtures, parsed);
  }
  return parsed;
}

function idsOf(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((category: unknown) => {
    const id = typeof category === 'object' && category !== null ? (category as { id?: unknown }).id : undefined;
    return typeof id === 'string' || typeof id === 'number' ? [String(id)] : [];
  });
}

/**
 * The offer category ids a person on `locale` may choose (SPEC §7, ADR 0010): the custom categories
 * of the locale's region in any of its languages (ids are shared across a region's languages), and
 * the categories of the locale's language (else the English ones) the app falls back to.
 */
export function offerCategoryIdsFor(fixtures: Fixtures, locale: string): string[] {
  const regionLists = Object.values(customizedCategories(fixtures)[localeRegion(locale)] ?? {});
  const fallback = fixtures.offerCategories.get(categoryKey(locale)) ?? fixtures.offerCategories.get('en') ?? [];
  const ids = new Set([...regionLists.flatMap((list) => idsOf(list)), ...fallback.map((category) => String(category.id))]);
  return [...ids];
}
