import { DEFAULT_LOCALE, isSupportedLocale, LOCALE_PATTERN } from '../../schemas/locales/locale-table';
import { SITE_ID_PATTERN as SITE_ID_SOURCE } from '../../schemas/site-config/types';
import { isAccountRoute, type AccountRoute } from '../app/route-names';

/**
 * Site resolution (SPEC §1, §2; rule written down in docs/decisions/0002-site-resolution.md
 * and the README). Pure: URL parts in, a safe answer out, for every input.
 */
export interface SiteLocation {
  siteId: string;
  locale: string;
  /** The issuer path segment, or null on /{locale}/account/ paths. */
  issuer: string | null;
  /** The account route when it is one of SPEC §2's, else null (the router sends it to login). */
  route: AccountRoute | null;
  /** The path up to and including `account/`, for building links to sibling routes. */
  basePath: string;
  /** Why a part of the URL was not used, for logs and tests; empty when everything was used. */
  warnings: string[];
}

export { DEFAULT_LOCALE };
export const DEFAULT_SITE_ID = 'default';
const SHADOW_SUFFIX = '-shdw';
const SITE_ID_PATTERN = new RegExp(SITE_ID_SOURCE);
const HOST_LABEL_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** Hosts that name no brand: the site comes from the issuer segment alone. */
const SHARED_HOST_LABELS: ReadonlySet<string> = new Set(['localhost', 'www', 'portal']);
const PROMOTIONS_LABEL = 'promotions';

export function isLocaleCode(value: string): boolean {
  return LOCALE_PATTERN.test(value);
}

export function isSiteId(value: string): boolean {
  return SITE_ID_PATTERN.test(value);
}

/**
 * The brand label of a host: its first DNS label, lower-cased, port and `-shdw` removed,
 * hyphens read as underscores (site ids use underscores; host names cannot). Null for
 * shared hosts (localhost, IP addresses, www, portal) and for anything that is not a host.
 */
export function hostBrandLabel(host: string): string | null {
  const hostname = host.trim().toLowerCase().replace(/:\d+$/, '');
  if (hostname === '' || hostname.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname)) return null;
  let label = hostname.split('.')[0] ?? '';
  if (label.endsWith(SHADOW_SUFFIX)) label = label.slice(0, -SHADOW_SUFFIX.length);
  if (!HOST_LABEL_PATTERN.test(label) || SHARED_HOST_LABELS.has(label)) return null;
  return label.replace(/-/g, '_');
}

function isPromotionsHost(label: string | null): boolean {
  return label !== null && label.startsWith(PROMOTIONS_LABEL);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Resolve a URL of the portal to its site, locale and route.
 *
 * Paths: /{issuer}/{locale}/account/{route} and /{locale}/account/{route} (SPEC §2). The locale
 * is the segment before `account`; it must be an xx_yy code of the locale table, else en_us. The site id (SPEC §1):
 *   1. a valid `siteid` query parameter overrides everything;
 *   2. a promotions host gives `promotions_{locale}` (host plus locale);
 *   3. otherwise host brand label plus issuer, joined by `_`, each part only when present
 *      (localhost/www/portal contribute nothing), e.g. firstbank.example + /card/ -> firstbank_card,
 *      localhost + /firstbank/ -> firstbank, firstbank-shdw.example with no issuer -> firstbank;
 *   4. when nothing names a site: `default`, the site-config service's default answer (SPEC §7).
 */
export function resolveSite(url: { host: string; pathname: string; search?: string }): SiteLocation {
  const warnings: string[] = [];
  const segments = url.pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map(decodeSegment);
  const accountIndex = segments.indexOf('account');

  let issuerCandidate: string | null = null;
  let localeCandidate: string | null = null;
  if (accountIndex === 1) {
    localeCandidate = segments[0] ?? null;
  } else if (accountIndex === 2) {
    issuerCandidate = segments[0] ?? null;
    localeCandidate = segments[1] ?? null;
  } else {
    // Not an account path: SPEC §2 reads the locale from the first segment unless it is context.html.
    const first = segments[0];
    if (first !== undefined && first !== 'context.html') localeCandidate = first;
    if (accountIndex === -1 && segments.length > 0) warnings.push('path has no account segment');
    if (accountIndex > 2) warnings.push('path has too many segments before account');
  }

  let locale = DEFAULT_LOCALE;
  if (localeCandidate !== null) {
    const lowered = localeCandidate.toLowerCase();
    // ADR 0013: only a locale of the table is used; any other code falls back to en_us.
    if (!isLocaleCode(lowered)) warnings.push(`locale segment is not xx_yy; using ${DEFAULT_LOCALE}`);
    else if (!isSupportedLocale(lowered)) warnings.push(`locale ${lowered} is not supported; using ${DEFAULT_LOCALE}`);
    else locale = lowered;
  }

  let issuer: string | null = null;
  if (issuerCandidate !== null) {
    const lowered = issuerCandidate.toLowerCase();
    if (isSiteId(lowered)) issuer = lowered;
    else warnings.push('issuer segment is not a valid site id part; ignored');
  }

  const isAccountPath = accountIndex === 1 || accountIndex === 2;
  const routeName = isAccountPath ? segments.slice(accountIndex + 1).join('/') : '';
  const route = isAccountRoute(routeName) ? routeName : null;
  const basePath = isAccountPath
    ? `/${[issuer ?? issuerCandidate, localeCandidate]
        .filter((part) => part !== null)
        .map((part) => encodeURIComponent(part))
        .join('/')}/account/`
    : `/${DEFAULT_LOCALE}/account/`;

  const siteId = siteIdFor(url.host, issuer, locale, url.search ?? '', warnings);
  return { siteId, locale, issuer, route, basePath, warnings };
}

function siteIdFor(host: string, issuer: string | null, locale: string, search: string, warnings: string[]): string {
  const override = new URLSearchParams(search).get('siteid');
  if (override !== null) {
    const lowered = override.trim().toLowerCase();
    if (isSiteId(lowered)) return lowered;
    warnings.push('siteid query parameter is not a valid site id; ignored');
  }
  const brand = hostBrandLabel(host);
  if (isPromotionsHost(brand)) return `${PROMOTIONS_LABEL}_${locale}`;
  const joined = [brand, issuer].filter((part) => part !== null).join('_');
  return joined !== '' && isSiteId(joined) ? joined : DEFAULT_SITE_ID;
}
