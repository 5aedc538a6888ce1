import { LEGACY_MARKETING_OPT_IN_NAMES, marketingOptInsAttribute, readMarketingOptIns } from '../../schemas/entities/marketing-opt-ins';
import { readSiteFormSettings, MARKETING_OPT_IN_KEYS, type MarketingOptInKey } from '../../schemas/forms/site-form-settings';
import { validateAttributeChanges } from '../../schemas/forms/validate-attributes';
import type { SiteConfig } from '../../schemas/site-config/types';
import type { Database, Queryable } from '../db/database';
import type { Fixtures } from '../site-files/load-fixtures';
import { formSchemaFor, normalisedPayload, sixDigitVerificationErrors } from '../forms/validate-payload';
import { HttpError } from '../http/errors';
import { DEFAULT_LOCALE, firstLocaleOf } from '../locale';
import { offerCategoryIdsFor } from './offer-category-ids';

/**
 * A person's attributes on one site (SPEC §3 "User site attributes") as ADR 0010 reads and saves
 * them: every save bumps `version`, and each attribute remembers the version that last wrote it,
 * so a save is refused only when a key it sends changed since the version it started from.
 */

export type SiteAttributes = Record<string, unknown>;

/** ADR 0010: the user site object of `GET user-attribute/user/{siteId}` and of every save's answer. */
export interface UserSiteRecord {
  siteId: string;
  attributes: SiteAttributes;
  version: number;
}

/** Who saves, where, and the day ages are computed on. */
export interface SaveContext {
  fixtures: Fixtures;
  userId: string;
  siteId: string;
  today: Date;
}

interface StoredSite {
  attributes: SiteAttributes;
  version: number;
  /** Attribute key (or `marketing_opt_ins.<opt-in>`) -> the version that last wrote it. */
  attributeVersions: Record<string, number>;
  /** The locale of the person's profile, for the offer categories when the attributes hold none. */
  userLocale: string | null;
}

/**
 * Runs inside a save's transaction once it changed something, with the attributes before and after (ADR 0021
 * "Telling the holder": the notice of a new phone is queued with the change, from the row the save locked).
 */
export type AfterSave = (tx: Queryable, before: SiteAttributes, after: SiteAttributes) => Promise<void>;

/** What the profile form does not edit, so a site with `updatable` "false" still accepts it (ADR 0010). */
const NOT_PROFILE_FORM_KEYS: ReadonlySet<string> = new Set(['marketing_opt_ins', 'offers_preference', 'locale', ...Object.keys(LEGACY_MARKETING_OPT_IN_NAMES)]);

export async function readUserSite(db: Queryable, userId: string, siteId: string): Promise<UserSiteRecord> {
  const stored = await readStoredSite(db, userId, siteId, false);
  return { siteId, attributes: stored.attributes, version: stored.version };
}

/**
 * ADR 0010 `POST user-attribute/v2/user/{siteId}`: merges only the keys in `changes` (null removes
 * one). With `baseVersion`, a key another save wrote after that version refuses the whole save.
 */
export function saveChangedAttributes(
  db: Database,
  context: SaveContext,
  sent: SiteAttributes,
  baseVersion: number | undefined,
  afterSave?: AfterSave,
): Promise<UserSiteRecord> {
  const changes = normalisedAttributes(context, sent);
  return db.transaction(async (tx) => {
    const stored = await lockStoredSite(tx, context);
    if (baseVersion !== undefined && baseVersion > stored.version) {
      throw new HttpError(400, 'VALIDATION_FAILED', 'baseVersion is newer than the stored attributes.', { baseVersion: 'invalid' });
    }
    checkChanges(context, stored, changes);
    if (baseVersion !== undefined) refuseChangedSince(stored, changes, baseVersion);
    return writeChanges(tx, context, stored, changes, afterSave);
  });
}

/**
 * ADR 0010 `POST user-attribute/user/attribute/{siteId}`: the whole site object at the version it was
 * read. What differs from the stored object is checked and saved as a change; a missing key is removed.
 */
export function saveWholeSiteObject(db: Database, context: SaveContext, sent: SiteAttributes, version: number, afterSave?: AfterSave): Promise<UserSiteRecord> {
  const attributes = normalisedAttributes(context, sent);
  return db.transaction(async (tx) => {
    const stored = await lockStoredSite(tx, context);
    if (version !== stored.version) {
      const changedKeys = Object.entries(stored.attributeVersions).filter(([, written]) => written > version);
      throw conflict(stored, Object.fromEntries(changedKeys.map(([path]) => [path, 'changed'])));
    }
    const changes = differences(stored.attributes, attributes);
    checkChanges(context, stored, changes);
    return writeChanges(tx, context, stored, changes, afterSave);
  });
}

/**
 * The attribute keys a save would change, read before it (ADR 0025: a contact point among them needs fresh
 * proof, asked before the save's transaction). `whole`: `sent` is the whole site object, so a missing key
 * is a removal; otherwise only the keys sent, each compared as it would be stored.
 */
export async function keysChangedBy(db: Queryable, context: SaveContext, sent: SiteAttributes, whole: boolean): Promise<string[]> {
  const stored = await readStoredSite(db, context.userId, context.siteId, false);
  const next = normalisedAttributes(context, sent);
  return Object.keys(whole ? differences(stored.attributes, next) : differences(stored.attributes, { ...stored.attributes, ...next }));
}

/** Attributes as the profile form normalises them (upper-cased where the site asks, SPEC §5): checked and stored so. */
function normalisedAttributes(context: SaveContext, attributes: SiteAttributes): SiteAttributes {
  return normalisedPayload(context.fixtures, { siteId: siteOf(context).siteId, locale: DEFAULT_LOCALE, form: 'edit-profile' }, attributes);
}

function siteOf(context: SaveContext): SiteConfig {
  return (context.fixtures.sites.get(context.siteId) ?? context.fixtures.defaultSite).config;
}

/** SPEC §6 profile update guard, then every key with the site's own rules (400 naming each field). */
function checkChanges(context: SaveContext, stored: StoredSite, changes: SiteAttributes): void {
  const site = siteOf(context);
  const settings = readSiteFormSettings(site);
  if (!settings.profileUpdatable && Object.keys(changes).some((key) => !NOT_PROFILE_FORM_KEYS.has(key))) {
    throw new HttpError(403, 'PROFILE_UPDATE_NOT_ALLOWED', 'This site does not allow profile updates.');
  }
  const locale = firstLocaleOf(changes.locale, stored.attributes.locale, stored.userLocale);
  const errors = validateAttributeChanges(changes, {
    schema: formSchemaFor(context.fixtures, { siteId: site.siteId, locale, form: 'edit-profile' }).schema,
    marketingOptIns: settings.marketingOptIns,
    offerCategoryIds: offerCategoryIdsFor(context.fixtures, locale),
    today: context.today,
  });
  const keys = {
    ...Object.fromEntries(Object.entries(errors).map(([field, error]) => [field, error.key])),
    ...sixDigitVerificationErrors(context.fixtures, site.siteId, changes, errors),
  };
  const fields = Object.keys(keys);
  if (fields.length > 0) throw new HttpError(400, 'VALIDATION_FAILED', `These fields are not valid: ${fields.join(', ')}.`, keys);
}

/** The versioned paths a change writes: each opt-in on its own, so two tabs may tick different ones. */
function changedPaths(changes: SiteAttributes): string[] {
  return Object.entries(changes).flatMap(([key, value]) => {
    if (key !== 'marketing_opt_ins') return [key];
    const optIns = typeof value === 'object' && value !== null ? Object.keys(value) : MARKETING_OPT_IN_KEYS;
    return optIns.map((optIn) => `marketing_opt_ins.${optIn}`);
  });
}

function refuseChangedSince(stored: StoredSite, changes: SiteAttributes, baseVersion: number): void {
  const changedPathsSince = changedPaths(changes).filter((path) => (stored.attributeVersions[path] ?? 0) > baseVersion);
  const fields = Object.fromEntries(changedPathsSince.map((path) => [path, 'changed']));
  if (Object.keys(fields).length > 0) throw conflict(stored, fields);
}

function conflict(stored: StoredSite, fields: Record<string, string>): HttpError {
  return new HttpError(409, 'ATTRIBUTES_CHANGED', 'Another save changed these attributes since they were read.', fields, {
    extras: { current: { attributes: stored.attributes, version: stored.version } },
  });
}

/** The keys of `next` that differ from `previous` (null for a removed key); opt-ins entry by entry. */
function differences(previous: SiteAttributes, next: SiteAttributes): SiteAttributes {
  const changes: SiteAttributes = {};
  for (const key of new Set([...Object.keys(previous), ...Object.keys(next)])) {
    const before = previous[key];
    const after = Object.hasOwn(next, key) ? next[key] : null;
    if (sameJson(before ?? null, after)) continue;
    if (key === 'marketing_opt_ins' && isRecord(before) && isRecord(after)) {
      const entries = Object.entries(after).filter(([optIn, entry]) => !sameJson(before[optIn] ?? null, entry));
      if (entries.length > 0) changes[key] = Object.fromEntries(entries);
    } else {
      changes[key] = after;
    }
  }
  return changes;
}

async function writeChanges(tx: Queryable, context: SaveContext, stored: StoredSite, changes: SiteAttributes, afterSave?: AfterSave): Promise<UserSiteRecord> {
  if (Object.keys(changes).length === 0) return { siteId: context.siteId, attributes: stored.attributes, version: stored.version };
  const version = stored.version + 1;
  const attributes = { ...stored.attributes };
  const attributeVersions = { ...stored.attributeVersions };
  for (const path of changedPaths(changes)) attributeVersions[path] = version;
  for (const [key, value] of Object.entries(changes)) {
    if (key === 'marketing_opt_ins') {
      const merged = value === null ? null : mergedOptIns(stored.attributes, value as Record<string, { optin: boolean }>);
      // ADR 0010: saving writes the new shape and drops the legacy names.
      for (const legacyName of Object.keys(LEGACY_MARKETING_OPT_IN_NAMES)) {
        delete attributes[legacyName];
        delete attributeVersions[legacyName];
      }
      if (merged === null) delete attributes.marketing_opt_ins;
      else attributes.marketing_opt_ins = merged;
    } else if (value === null) {
      delete attributes[key];
    } else {
      attributes[key] = value;
    }
  }
  await tx.query(
    `update user_sites set attributes = $3, attribute_versions = $4, version = $5, updated_at = now()
     where user_id = $1 and site_id = $2`,
    [context.userId, context.siteId, JSON.stringify(attributes), JSON.stringify(attributeVersions), version],
  );
  await afterSave?.(tx, stored.attributes, attributes);
  return { siteId: context.siteId, attributes, version };
}

/** The opt-ins the person had (under either name) with the sent ones changed. */
function mergedOptIns(stored: SiteAttributes, sent: Record<string, { optin: boolean }>): ReturnType<typeof marketingOptInsAttribute> {
  const current = readMarketingOptIns(stored);
  const storedEntries = isRecord(stored.marketing_opt_ins) ? stored.marketing_opt_ins : {};
  const legacyKeys = Object.entries(LEGACY_MARKETING_OPT_IN_NAMES)
    .filter(([legacyName]) => stored[legacyName] !== undefined)
    .map(([, key]) => key);
  const flags: Partial<Record<MarketingOptInKey, boolean>> = {};
  for (const key of MARKETING_OPT_IN_KEYS) {
    if (Object.hasOwn(storedEntries, key) || legacyKeys.includes(key)) flags[key] = current[key];
    const entry = sent[key];
    if (entry) flags[key] = entry.optin;
  }
  return marketingOptInsAttribute(flags);
}

async function lockStoredSite(tx: Queryable, context: SaveContext): Promise<StoredSite> {
  // A first save creates the row (SPEC §4: the locale saved after USER_NOT_FOUND gives a profile).
  await tx.query('insert into user_sites (user_id, site_id) values ($1, $2) on conflict (user_id, site_id) do nothing', [context.userId, context.siteId]);
  return readStoredSite(tx, context.userId, context.siteId, true);
}

async function readStoredSite(db: Queryable, userId: string, siteId: string, forUpdate: boolean): Promise<StoredSite> {
  const result = await db.query<{ attributes: SiteAttributes; version: number; attribute_versions: Record<string, number>; user_locale: string | null }>(
    `select attributes, version, attribute_versions, (select locale from users where id = $1) as user_locale
     from user_sites where user_id = $1 and site_id = $2${forUpdate ? ' for update of user_sites' : ''}`,
    [userId, siteId],
  );
  const row = result.rows[0];
  return row
    ? { attributes: row.attributes, version: row.version, attributeVersions: row.attribute_versions, userLocale: row.user_locale }
    : { attributes: {}, version: 0, attributeVersions: {}, userLocale: null };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural equality of JSON values, whatever the key order. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}
