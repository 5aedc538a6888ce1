import type { FastifyInstance } from 'fastify';
import { CONTENT_GROUP_PATTERN } from '../../../schemas/api/request-schemas';
import type { CONTENT_ANSWER } from '../../../schemas/api/response-schemas';
import type { SchemaType } from '../../../schemas/api/schema-type';
import { contentFallbackChain, mergeContentTexts } from '../../../schemas/locales/content-fallback';
import { isPseudoLocale, pseudoLocaliseTexts } from '../../../schemas/locales/pseudo-locale';
import type { ContentBundle, Fixtures } from '../../site-files/load-fixtures';
import { HttpError } from '../../http/errors';
import { DEFAULT_LOCALE } from '../../locale';
import { fromContract } from '../../http/route-contract';

const GROUP_NAME = new RegExp(CONTENT_GROUP_PATTERN);
/** `contentType` value (or absence) that asks for every group. */
const ALL_GROUPS = 'all';

interface ContentQuery {
  version: 2 | 3;
  contentType?: string;
  level?: -1;
  locale: string;
  siteId: string;
}

/** The answer of both content calls, as the contract states it. For all groups, keys are `group.key` so `content` stays a flat text map. */
type ContentAnswer = SchemaType<typeof CONTENT_ANSWER>;

/**
 * SPEC §7 content calls: `GET bin/aem/rest` (version 2, or 3 when the site's cms tenant is not
 * default) and, for version 3, `GET cmsapi/content.data.json/vpp/{siteId}/{path}`. Texts come
 * from `fixtures/content/{locale}.json`, key by key falling back to the nearest content of the same
 * language (CLDR parent locales), then to en_us.
 */
export async function contentRoutes(app: FastifyInstance, options: { fixtures: Fixtures }): Promise<void> {
  const texts = contentLookup(options.fixtures.content);

  app.route<{ Querystring: ContentQuery }>({
    ...fromContract('GET /bin/aem/rest'),
    handler: async (request): Promise<ContentAnswer> => {
      const { version, locale, siteId } = request.query;
      const contentType = request.query.contentType ?? ALL_GROUPS;
      const content = contentType === ALL_GROUPS ? texts.allGroups(locale) : texts.group(locale, contentType);
      if (!content) throw new HttpError(404, 'NOT_FOUND', `There is no content group "${contentType}".`);
      return { siteId, locale, version, contentType, content };
    },
  });

  app.route<{ Params: { siteId: string; '*': string }; Querystring: { locale?: string } }>({
    ...fromContract('GET /cmsapi/content.data.json/vpp/:siteId/*'),
    handler: async (request): Promise<ContentAnswer> => {
      const { siteId } = request.params;
      const locale = request.query.locale ?? DEFAULT_LOCALE;
      // The last path segment names the group: `vppcards/cards` -> `cards`.
      const group =
        request.params['*']
          .replace(/\.json$/, '')
          .split('/')
          .pop() ?? '';
      const content = GROUP_NAME.test(group) ? texts.group(locale, group) : undefined;
      if (!content) throw new HttpError(404, 'NOT_FOUND', 'There is no content at this path.');
      return { siteId, locale, version: 3, contentType: group, content };
    },
  });
}

function contentLookup(bundles: ReadonlyMap<string, ContentBundle>) {
  const fallback = bundles.get(DEFAULT_LOCALE) ?? {};
  /** The content files that answer a locale, nearest first (ADR 0013 "Content fallback by language"). */
  const chainOf = (locale: string): ContentBundle[] => contentFallbackChain(locale, bundles.keys()).map((file) => bundles.get(file) ?? {});
  const groupsOf = (chain: readonly ContentBundle[]): string[] => [...new Set(chain.flatMap((bundle) => Object.keys(bundle)))];

  /**
   * One group's texts for a locale: its own file, then the nearest files of its language (CLDR
   * parents: es_mx reads es_co), then en_us, key by key; undefined when none has the group. The
   * pseudo-locale is en_us transformed on each call, so it can never lag behind (ADR 0013).
   */
  const group = (locale: string, name: string): Record<string, string> | undefined => {
    if (isPseudoLocale(locale)) return fallback[name] === undefined ? undefined : pseudoLocaliseTexts(fallback[name]);
    const chain = chainOf(locale);
    if (!groupsOf(chain).includes(name)) return undefined;
    return mergeContentTexts(chain.map((bundle) => bundle[name]));
  };

  const allGroups = (locale: string): Record<string, string> =>
    Object.fromEntries(
      groupsOf(isPseudoLocale(locale) ? [fallback] : chainOf(locale)).flatMap((name) =>
        Object.entries(group(locale, name) ?? {}).map(([key, text]) => [`${name}.${key}`, text]),
      ),
    );

  return { group, allGroups };
}
