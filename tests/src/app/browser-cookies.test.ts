import { describe, expect, it } from 'vitest';
import { cookieInHeader } from '../../../src/app/browser-cookies';

// One reading of a cookie for the browser's jar and the server renderer's (ADR 0024): both must see the same §4 inputs.
describe('cookieInHeader', () => {
  it('reads the first pair of that name, URI-decoded, whatever the spacing', () => {
    expect(cookieInHeader('a=1;  gmap_user_type=CARD%20HOLDER ; gmap_user_type=CONCIERGE', 'gmap_user_type')).toBe('CARD HOLDER');
    expect(cookieInHeader('gmap_authenticated=true', 'gmap_authenticated')).toBe('true');
  });

  it('answers undefined for a cookie that is not there, or only as part of another name', () => {
    expect(cookieInHeader('xgmap_authenticated=true; gmap_authenticated_x=true', 'gmap_authenticated')).toBeUndefined();
    expect(cookieInHeader('', 'gmap_authenticated')).toBeUndefined();
  });

  it('reads a value that is not URI-encoded as it is, never throwing (another site on the domain may set one)', () => {
    expect(cookieInHeader('gmap_authenticated=100%; other=%E0%A4%A', 'gmap_authenticated')).toBe('100%');
    expect(cookieInHeader('other=%E0%A4%A', 'other')).toBe('%E0%A4%A');
  });
});
