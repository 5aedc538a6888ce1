import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { format, resolveConfig } from 'prettier';
import { buildFormSchema } from '../../../schemas/forms/build-form-schema';
import { contentFallbackChain } from '../../../schemas/locales/content-fallback';
import { FEATURE_SETTINGS, SITE_ID_PATTERN } from '../../../schemas/site-config/fixture-format';
import { simulatedFormData, type SimulationInputs } from '../../../schemas/site-config/site-simulation';
import { siteLocalesOf } from '../../../schemas/site-config/site-locales';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { checkSiteFileText, type SiteFileVerdict } from '../../site-files/site-file-check';
import { lineDiff } from './line-diff';
import type { SettingHelp } from './setting-help';
import { SITE_TEMPLATES } from './site-templates';

export interface StudioOptions {
  /** Where saves go (`fixtures/sites` unless STUDIO_SITES_DIR names another folder): nothing outside it is written. */
  sitesDir: string;
  /** The bundled sites a new one may start from, read only. */
  bundledSitesDir: string;
  /** The content texts (`fixtures/content`), for the previews and the simulation. */
  contentDir: string;
  publicFileExists: (path: string) => boolean;
  help: SettingHelp;
  now: () => Date;
}

interface SiteBody {
  text: string;
  /** The digest of the file as it was opened; null for a site that had no file. */
  version: string | null;
}

const SITE_ID = new RegExp(SITE_ID_PATTERN);
/** The forms the studio previews and types simulated values into: the ones a card holder fills with the site's settings. */
const PREVIEW_FORMS = ['registration', 'edit-profile'] as const;
const BODY = {
  type: 'object',
  required: ['text', 'version'],
  additionalProperties: false,
  properties: { text: { type: 'string', maxLength: 200_000 }, version: { type: ['string', 'null'], pattern: '^[0-9a-f]{64}$' } },
} as const;
const CHECK_BODY = { type: 'object', required: ['text'], additionalProperties: false, properties: { text: { type: 'string', maxLength: 200_000 } } } as const;

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

function refuse(reply: FastifyReply, status: number, error: string, message: string, field: string, extra: object = {}) {
  return reply.code(status).send({ error, message, field, ...extra });
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The site studio's calls (docs/decisions/0027-site-studio.md), under `/api/site-studio/`: the sites and templates to
 * start from with every setting's help, a site's file, a locale's texts, the check `sites:check` runs, and the save,
 * which writes `{sitesDir}/{siteId}.json` only: a siteId matching the format's pattern, a file the check passes, and
 * only over the file the author opened.
 */
export async function siteStudioRoutes(app: FastifyInstance, options: StudioOptions): Promise<void> {
  const sitesDir = resolve(options.sitesDir);
  const contentFiles = (): string[] =>
    readdirSync(options.contentDir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.replace(/\.json$/, ''));
  const inputs = (): SimulationInputs => {
    const now = options.now();
    const content = new Map(contentFiles().map((name) => [name, JSON.parse(readFileSync(resolve(options.contentDir, `${name}.json`), 'utf8'))] as const));
    return { today: { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1, day: now.getUTCDate() }, content };
  };
  const fileOf = (siteId: string): string | null => {
    if (!SITE_ID.test(siteId)) return null;
    const path = resolve(sitesDir, `${siteId}.json`);
    return dirname(path) === sitesDir ? path : null;
  };
  const check = (siteId: string, text: string): SiteFileVerdict =>
    checkSiteFileText(text, `fixtures/sites/${siteId}.json`, { publicFileExists: options.publicFileExists, inputs: inputs() });
  const badSiteId = (reply: FastifyReply, siteId: string) =>
    refuse(
      reply,
      400,
      'SITE_ID_INVALID',
      `"${siteId}" is not a site id: lowercase letters, digits, "_" or "-", starting with a letter or digit, at most 64 long (no "/" or ".."); the file is written as fixtures/sites/{siteId}.json and nowhere else`,
      'siteId',
    );

  app.get('/site-studio/start', async () => {
    const bundled = readdirSync(options.bundledSitesDir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => {
        const site = JSON.parse(readFileSync(resolve(options.bundledSitesDir, name), 'utf8')) as SiteConfig;
        return { siteId: site.siteId, name: site.name };
      });
    return {
      sites: bundled,
      templates: SITE_TEMPLATES.map(({ id, title, site }) => ({ id, title, text: `${JSON.stringify(site, null, 2)}\n` })),
      help: options.help,
      features: FEATURE_SETTINGS,
      sitePattern: SITE_ID_PATTERN,
    };
  });

  // The file as saved (the studio's folder), else the bundled one to start from; `version` is the saved file's digest.
  app.get<{ Params: { siteId: string } }>('/site-studio/sites/:siteId', async (request, reply) => {
    const path = fileOf(request.params.siteId);
    if (path === null) return badSiteId(reply, request.params.siteId);
    const saved = readOrNull(path);
    const text = saved ?? readOrNull(resolve(options.bundledSitesDir, `${request.params.siteId}.json`));
    if (text === null) return refuse(reply, 404, 'SITE_NOT_FOUND', `There is no site ${request.params.siteId}`, 'siteId');
    return { text, version: saved === null ? null : digest(saved) };
  });

  // A locale's texts as the portal serves them: each group merged along the locale's fallback chain (ADR 0013).
  app.get<{ Params: { locale: string } }>('/site-studio/content/:locale', async (request, reply) => {
    const files = contentFiles();
    if (!/^[a-z]{2}_[a-z]{2}$/.test(request.params.locale)) return refuse(reply, 400, 'LOCALE_INVALID', 'A locale code like "pt_pt"', 'locale');
    const groups: Record<string, Record<string, string>> = {};
    for (const file of contentFallbackChain(request.params.locale, files).reverse()) {
      const content = JSON.parse(readFileSync(resolve(options.contentDir, `${file}.json`), 'utf8')) as Record<string, Record<string, string>>;
      for (const [group, texts] of Object.entries(content)) groups[group] = { ...groups[group], ...texts };
    }
    return groups;
  });

  // The check `sites:check` runs, and the values its simulation types, by locale and form, for the previews.
  app.post<{ Body: { text: string } }>('/site-studio/check', { schema: { body: CHECK_BODY } }, async (request) => {
    const siteId = siteIdIn(request.body.text) ?? 'unnamed';
    const named = SITE_ID.test(siteId);
    const verdict = check(named ? siteId : 'unnamed', request.body.text);
    // The studio names the file after the siteId: a siteId that is no site id is its own mistake, not also a file
    // name ("unnamed") the author never chose.
    const mistakes = named
      ? verdict.mistakes
      : verdict.mistakes.filter(({ path, expected }) => !(path === '$.siteId' && expected.endsWith('(the file name without .json)')));
    return { ...verdict, mistakes, values: verdict.simulated ? simulatedValues(request.body.text) : null };
  });

  // What the save would write, against the file on disk; refused as the save is.
  app.post<{ Params: { siteId: string }; Body: SiteBody }>('/site-studio/sites/:siteId/diff', { schema: { body: BODY } }, async (request, reply) => {
    const ready = await readyToWrite(request.params.siteId, request.body, reply);
    if (ready === null) return reply;
    return { diff: lineDiff(ready.onDisk ?? '', ready.formatted), file: `fixtures/sites/${request.params.siteId}.json`, isNew: ready.onDisk === null };
  });

  app.put<{ Params: { siteId: string }; Body: SiteBody }>('/site-studio/sites/:siteId', { schema: { body: BODY } }, async (request, reply) => {
    const ready = await readyToWrite(request.params.siteId, request.body, reply);
    if (ready === null) return reply;
    // Written beside the file, then renamed over it: a reader never sees half a file, and a failed write loses nothing.
    const partial = `${ready.path}.${process.pid}.saving`;
    writeFileSync(partial, ready.formatted, { flag: 'wx' });
    renameSync(partial, ready.path);
    return { saved: `fixtures/sites/${request.params.siteId}.json`, version: digest(ready.formatted) };
  });

  async function readyToWrite(siteId: string, body: SiteBody, reply: FastifyReply): Promise<{ path: string; formatted: string; onDisk: string | null } | null> {
    const path = fileOf(siteId);
    if (path === null) {
      badSiteId(reply, siteId);
      return null;
    }
    const named = siteIdIn(body.text);
    if (named !== undefined && named !== siteId) {
      refuse(reply, 400, 'SITE_ID_MISMATCH', `The file says "siteId": "${named}" but is saved as ${siteId}.json: the file name is the site id`, '$.siteId');
      return null;
    }
    const verdict = check(siteId, body.text);
    if (verdict.mistakes.length > 0) {
      refuse(reply, 422, 'CHECK_FAILED', `sites:check refuses the file (${verdict.mistakes.length} mistakes): nothing was written`, '$', verdict);
      return null;
    }
    const onDisk = readOrNull(path);
    if ((onDisk === null ? null : digest(onDisk)) !== body.version) {
      refuse(
        reply,
        409,
        'FILE_CHANGED',
        onDisk === null
          ? `fixtures/sites/${siteId}.json was removed since you opened it: nothing was written; your text is kept here, copy it or open the site again`
          : body.version === null
            ? `fixtures/sites/${siteId}.json already exists: nothing was written; open that site to change it, or choose another site id`
            : `fixtures/sites/${siteId}.json changed on disk since you opened it: nothing was written; your text is kept here, open the file again to see the other change`,
        'version',
      );
      return null;
    }
    const config = await resolveConfig(path);
    const formatted = await format(body.text, { ...config, parser: 'json', filepath: path });
    return { path, formatted, onDisk };
  }
}

function siteIdIn(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as { siteId?: unknown };
    return typeof value.siteId === 'string' ? value.siteId : undefined;
  } catch {
    return undefined;
  }
}

function simulatedValues(text: string): Record<string, Record<string, Record<string, unknown>>> {
  const site = JSON.parse(text) as SiteConfig;
  const values: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const locale of siteLocalesOf(site)) {
    values[locale] = {};
    for (const form of PREVIEW_FORMS) values[locale][form] = simulatedFormData(buildFormSchema(site, locale, form).schema);
  }
  return values;
}
