// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { useDocumentHead } from '../../../src/app/page-context';
import { SiteBrandMark, siteBrandStylesheetOf } from '../../../src/app/SiteBrandMark';
import firstbankFixture from '../../../fixtures/sites/firstbank.json';
import northbankFixture from '../../../fixtures/sites/northbank.json';

// ADR 0020: the header's logo and the link to the gateway's stylesheet of the site's brand colours.
const firstbank = firstbankFixture as unknown as SiteConfig;
const northbank = northbankFixture as unknown as SiteConfig;
const brandLinks = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][data-site-brand]')].map((link) => link.getAttribute('href'));

afterEach(cleanup);

/** The header's mark, with the document head the root screen gives it (SPEC §2 root screen). */
function BrandedHeader({ site, name }: { site: SiteConfig | undefined; name: string }) {
  useDocumentHead({ lang: 'en-US', dir: 'ltr', title: name, theme: 'classic', siteId: site?.siteId ?? 'default', stylesheet: siteBrandStylesheetOf(site) });
  return <SiteBrandMark site={site} name={name} />;
}

describe('SiteBrandMark', () => {
  it("shows firstbank's logo as decoration beside its name, and links its brand stylesheet once", () => {
    const { container } = render(<BrandedHeader site={firstbank} name="FirstBank Rewards" />);
    const logo = container.querySelector('img');
    expect(logo?.getAttribute('src')).toBe('/brands/firstbank.svg');
    expect(logo?.getAttribute('alt')).toBe('');
    expect(container.textContent).toBe('FirstBank Rewards');
    expect(brandLinks()).toEqual(['/api/site-theme/firstbank.css']);
    // Never an inline style: the strict CSP would refuse it.
    expect(document.querySelectorAll('[style], style')).toHaveLength(0);
  });

  it('links nothing and shows no logo for a site without a brand, and drops the link when the site changes', () => {
    const { container, rerender, unmount } = render(<BrandedHeader site={firstbank} name="FirstBank Rewards" />);
    rerender(<BrandedHeader site={northbank} name="Northbank Rewards" />);
    expect(container.querySelector('img')).toBeNull();
    expect(brandLinks()).toEqual([]);
    rerender(<BrandedHeader site={firstbank} name="FirstBank Rewards" />);
    unmount();
    expect(brandLinks()).toEqual([]);
  });

  it('shows the name alone while the site configuration loads', () => {
    const { container } = render(<BrandedHeader site={undefined} name="Rewards Portal" />);
    expect(container.textContent).toBe('Rewards Portal');
    expect(brandLinks()).toEqual([]);
  });

  it('takes over the link a page rendered on the server brought (ADR 0024), and never doubles it', () => {
    const served = document.createElement('link');
    served.rel = 'stylesheet';
    served.href = '/api/site-theme/firstbank.css';
    served.setAttribute('data-site-brand', '');
    document.head.append(served);
    const { unmount } = render(<BrandedHeader site={firstbank} name="FirstBank Rewards" />);
    expect(brandLinks()).toEqual(['/api/site-theme/firstbank.css']);
    expect(served.isConnected).toBe(true);
    unmount();
    expect(brandLinks()).toEqual([]);
  });

  it('takes over the stylesheet a server page wrote into its head (ADR 0024), and adds no link beside it', () => {
    const served = document.createElement('style');
    served.setAttribute('data-site-brand', '/api/site-theme/firstbank.css');
    served.textContent = ':root { --brand: #123456; }';
    document.head.append(served);
    const { unmount } = render(<BrandedHeader site={firstbank} name="FirstBank Rewards" />);
    expect(brandLinks()).toEqual([]);
    expect(served.isConnected).toBe(true);
    unmount();
    expect(served.isConnected).toBe(false);
  });
});
