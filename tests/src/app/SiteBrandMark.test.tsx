// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { SiteBrandMark } from '../../../src/app/SiteBrandMark';
import firstbankFixture from '../../../fixtures/sites/firstbank.json';
import northbankFixture from '../../../fixtures/sites/northbank.json';

// ADR 0020: the header's logo and the link to the gateway's stylesheet of the site's brand colours.
const firstbank = firstbankFixture as unknown as SiteConfig;
const northbank = northbankFixture as unknown as SiteConfig;
const brandLinks = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][data-site-brand]')].map((link) => link.getAttribute('href'));

afterEach(cleanup);

describe('SiteBrandMark', () => {
  it("shows firstbank's logo as decoration beside its name, and links its brand stylesheet once", () => {
    const { container } = render(<SiteBrandMark site={firstbank} name="FirstBank Rewards" />);
    const logo = container.querySelector('img');
    expect(logo?.getAttribute('src')).toBe('/brands/firstbank.svg');
    expect(logo?.getAttribute('alt')).toBe('');
    expect(container.textContent).toBe('FirstBank Rewards');
    expect(brandLinks()).toEqual(['/api/site-theme/firstbank.css']);
    // Never an inline style: the strict CSP would refuse it.
    expect(document.querySelectorAll('[style], style')).toHaveLength(0);
  });

  it('links nothing and shows no logo for a site without a brand, and drops the link when the site changes', () => {
    const { container, rerender, unmount } = render(<SiteBrandMark site={firstbank} name="FirstBank Rewards" />);
    rerender(<SiteBrandMark site={northbank} name="Northbank Rewards" />);
    expect(container.querySelector('img')).toBeNull();
    expect(brandLinks()).toEqual([]);
    rerender(<SiteBrandMark site={firstbank} name="FirstBank Rewards" />);
    unmount();
    expect(brandLinks()).toEqual([]);
  });

  it('shows the name alone while the site configuration loads', () => {
    const { container } = render(<SiteBrandMark site={undefined} name="Rewards Portal" />);
    expect(container.textContent).toBe('Rewards Portal');
    expect(brandLinks()).toEqual([]);
  });
});
