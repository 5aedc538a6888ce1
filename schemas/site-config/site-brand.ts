/**
 * A site's look as data (SPEC §3 "theme (default classic)"; docs/decisions/0020-site-themes-and-brands.md):
 * the themes a fixture may name, and the `site_brand` feature (primary and accent colours, a logo)
 * the gateway turns into the site's stylesheet. Pure: the fixture check, the gateway and the app
 * read the same rules, so a value the check refused can never reach a page.
 */
import { AA_NORMAL_TEXT_RATIO, contrastRatio, formatContrastRatio, HEX_COLOUR_PATTERN, normaliseHexColour } from './colour-contrast';
import { featureConfigOf, type SiteConfig } from './types';

/** SPEC §3: `classic` is the default; `vpp` is the form layout of the vpp tenant. Styles: src/styles/site-themes.css. */
export const SITE_THEMES = ['classic', 'vpp'] as const;
export type SiteTheme = (typeof SITE_THEMES)[number];
export const DEFAULT_THEME: SiteTheme = 'classic';

export function siteThemeOf(site: Pick<SiteConfig, 'theme'> | undefined): SiteTheme {
  return SITE_THEMES.find((theme) => theme === site?.theme) ?? DEFAULT_THEME;
}

/**
 * A logo is a file of the app's own build (Vite copies `public/` to the root of the build): a
 * relative path of letters, digits, `_`, `-`, `.` and `/`, an image extension, never `..`, `//`
 * or a scheme, so it can only name a file the portal serves from its own origin.
 */
export const LOGO_PATH_PATTERN = '^(?!.*\\.\\.)(?!.*//)[A-Za-z0-9_-][A-Za-z0-9_./-]*\\.(?:svg|png|webp)$';
const LOGO_PATH = new RegExp(LOGO_PATH_PATTERN);

/** The settings of `site_brand`, as the fixture names them. */
export const BRAND_SETTINGS = { primaryColor: 'primary_color', accentColor: 'accent_color', logo: 'logo' } as const;
export const BRAND_COLOUR_PATTERN = HEX_COLOUR_PATTERN;

/** The colours of src/styles/app.css a site without a brand keeps (a unit test holds the two in step). */
export const DEFAULT_BRAND_COLOURS = { primary: '#1a1f71', accent: '#f7b600' } as const;
/** What the brand colours are drawn on or carry, in every theme (src/styles/app.css, src/styles/site-themes.css). */
export const BRAND_TEXT_ON_PRIMARY = '#ffffff';

export interface SiteBrand {
  /** `#rrggbb`, or null for the theme's colour. */
  primaryColor: string | null;
  accentColor: string | null;
  /** The logo's URL path on the portal's origin (`/brands/firstbank.svg`), or null. */
  logoSrc: string | null;
}

/** The site's brand, each value only when it passes the fixture rules (anything else: the theme's own). */
export function siteBrandOf(site: SiteConfig | undefined): SiteBrand {
  const settings = site ? featureConfigOf(site, 'site_brand') : {};
  const colour = (key: string): string | null => {
    const value = settings[key];
    return typeof value === 'string' ? normaliseHexColour(value) : null;
  };
  const logo = settings[BRAND_SETTINGS.logo];
  return {
    primaryColor: colour(BRAND_SETTINGS.primaryColor),
    accentColor: colour(BRAND_SETTINGS.accentColor),
    logoSrc: typeof logo === 'string' && LOGO_PATH.test(logo) ? `/${logo}` : null,
  };
}

export function hasBrandColours(brand: SiteBrand): boolean {
  return brand.primaryColor !== null || brand.accentColor !== null;
}

export function isLogoPath(value: string): boolean {
  return LOGO_PATH.test(value);
}

/** A text colour on a background the themes draw, and the setting to change when it is too faint. */
export interface BrandContrastPair {
  /** The setting a failing pair is reported at. */
  setting: (typeof BRAND_SETTINGS)['primaryColor' | 'accentColor'];
  /** What the pair is used for, as the author reads it. */
  use: string;
  foreground: string;
  background: string;
  ratio: number;
}

/**
 * The pairs the themes draw with the brand colours: white text on primary (buttons, header, the
 * first carousel slide) is the same pair as primary links and outlines on the white page; primary
 * text on accent (the profile's initials, the carousel's highlighted slide). Each must reach WCAG AA.
 */
export function brandContrastPairs(brand: Pick<SiteBrand, 'primaryColor' | 'accentColor'>): BrandContrastPair[] {
  const primary = brand.primaryColor ?? DEFAULT_BRAND_COLOURS.primary;
  const accent = brand.accentColor ?? DEFAULT_BRAND_COLOURS.accent;
  return [
    {
      setting: BRAND_SETTINGS.primaryColor,
      use: `button text ${BRAND_TEXT_ON_PRIMARY} on primary_color ${primary} (and primary_color links on the white page)`,
      foreground: BRAND_TEXT_ON_PRIMARY,
      background: primary,
      ratio: contrastRatio(BRAND_TEXT_ON_PRIMARY, primary),
    },
    {
      setting: brand.accentColor !== null || brand.primaryColor === null ? BRAND_SETTINGS.accentColor : BRAND_SETTINGS.primaryColor,
      use: `primary_color text ${primary} on accent_color ${accent}`,
      foreground: primary,
      background: accent,
      ratio: contrastRatio(primary, accent),
    },
  ];
}

/** The pairs below WCAG AA (4.5:1), each with what an author reads. */
export function failingBrandContrast(brand: Pick<SiteBrand, 'primaryColor' | 'accentColor'>): Array<BrandContrastPair & { message: string }> {
  return brandContrastPairs(brand)
    .filter((pair) => pair.ratio < AA_NORMAL_TEXT_RATIO)
    .map((pair) => ({ ...pair, message: `${pair.use}: contrast ${formatContrastRatio(pair.ratio)}, below the ${AA_NORMAL_TEXT_RATIO}:1 of WCAG AA` }));
}

/**
 * The site's stylesheet (ADR 0020): its brand colours as the custom properties every style reads.
 * Only normalised `#rrggbb` values and a pattern-checked site id are written, so no fixture text
 * can end a declaration or a comment. `html:root` outranks app.css's `:root` whatever the order.
 */
export function siteStylesheet(siteId: string, brand: SiteBrand): string {
  const declarations = [
    ...(brand.primaryColor === null ? [] : [`  --color-brand: ${brand.primaryColor};`]),
    ...(brand.accentColor === null ? [] : [`  --color-accent: ${brand.accentColor};`]),
  ];
  const safeId = /^[a-z0-9_-]+$/.test(siteId) ? siteId : 'site';
  const heading = `/* Brand of site ${safeId} (site_brand of its fixture); generated by the gateway. */\n`;
  return declarations.length === 0 ? `${heading}/* No brand colours: the theme's own apply. */\n` : `${heading}html:root {\n${declarations.join('\n')}\n}\n`;
}
