import { hasBrandColours, siteBrandOf } from '../../schemas/site-config/site-brand';
import type { SiteConfig } from '../../schemas/site-config/types';
import { gatewayBaseUrl } from '../api/gateway-request-headers';
import { FEATURE_FLAGS } from './feature-flags';
import '../styles/site-themes.css';

/**
 * The gateway's stylesheet of the site's brand colours (docs/decisions/0020-site-themes-and-brands.md), or null
 * for a site without a brand: a <link> to the portal's own origin, which the strict CSP allows where an inline
 * style would be refused. The root screen puts it on the document (page-context.tsx).
 */
export function siteBrandStylesheetOf(site: SiteConfig | undefined): string | null {
  return site && hasBrandColours(siteBrandOf(site)) ? `${gatewayBaseUrl(FEATURE_FLAGS)}/site-theme/${encodeURIComponent(site.siteId)}.css` : null;
}

/**
 * The header's mark of the site (SPEC §2 root screen, ADR 0020): its logo from the fixture's
 * `site_brand`, beside its name. The name is the text; the logo is decoration (empty alt).
 */
export function SiteBrandMark({ site, name }: { site: SiteConfig | undefined; name: string }) {
  const { logoSrc } = siteBrandOf(site);
  return (
    <span className="shell__brand">
      {logoSrc !== null && <img className="shell__logo" src={logoSrc} alt="" width="40" height="40" />}
      <span className="shell__brand-name">{name}</span>
    </span>
  );
}
