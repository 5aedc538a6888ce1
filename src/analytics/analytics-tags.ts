import tagsFixture from '../../fixtures/analytics/tags.json';
import type { LocaleRegion } from '../../schemas/locales/locale-table';

/** A region's tag (SPEC §3 regions "used to choose the analytics tag"). */
export interface AnalyticsTag {
  containerId: string;
  /** https only; loaded only when the build says so (ADR 0013). */
  scriptUrl: string;
}

export type AnalyticsTags = Readonly<Record<LocaleRegion, AnalyticsTag>>;

const REGIONS: readonly LocaleRegion[] = ['NA', 'LAC', 'AP', 'CEMEA', 'Europe'];
const CONTAINER_ID = /^GTM-[A-Z0-9]{4,12}$/;

/**
 * Reads `fixtures/analytics/tags.json` (bundled, ADR 0013): every region must have a container id
 * and an https script URL, or the build's tests fail naming the region.
 */
export function parseAnalyticsTags(json: unknown): AnalyticsTags {
  const source = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  const tags = {} as Record<LocaleRegion, AnalyticsTag>;
  for (const region of REGIONS) {
    const tag = source[region] as Partial<AnalyticsTag> | undefined;
    if (typeof tag?.containerId !== 'string' || !CONTAINER_ID.test(tag.containerId))
      throw new Error(`Analytics tag of ${region}: containerId must look like GTM-XXXXXXX.`);
    if (typeof tag.scriptUrl !== 'string' || !URL.canParse(tag.scriptUrl) || new URL(tag.scriptUrl).protocol !== 'https:') {
      throw new Error(`Analytics tag of ${region}: scriptUrl must be an https URL.`);
    }
    tags[region] = { containerId: tag.containerId, scriptUrl: tag.scriptUrl };
  }
  return tags;
}

export const ANALYTICS_TAGS: AnalyticsTags = parseAnalyticsTags(tagsFixture);
