import { describe, expect, it } from 'vitest';
import { readEntryQuery, searchWithoutNotice } from '../../../src/app/entry-query';

const ORIGIN = 'https://portal.example';

describe('§2 query parameters on entry', () => {
  it.each([
    ['?returnurl=%2Ffirstbank%2Fen_us%2Faccount%2Fprofile', '/firstbank/en_us/account/profile'],
    ['?returnurl=https%3A%2F%2Fportal.example%2Fen_us%2Faccount%2Fedit-pan', 'https://portal.example/en_us/account/edit-pan'],
    ['?returnurl=https%3A%2F%2Fevil.example%2Fen_us%2Faccount%2Fprofile', null], // another origin
    ['?returnurl=javascript%3Aalert(1)', null],
    ['?returnurl=%2Fprofile', null], // no {{locale}}/ segment
    ['', null],
  ])('%s stores returnurl %j', (search, stored) => {
    expect(readEntryQuery(search, ORIGIN).returnUrl).toBe(stored);
  });

  it('appends a valid selectedCause to the stored returnurl', () => {
    expect(readEntryQuery('?returnurl=%2Fen_us%2Faccount%2Fprofile&selectedCause=save the bees', ORIGIN).returnUrl).toBe(
      '/en_us/account/profile?selectedCause=save+the+bees',
    );
    expect(readEntryQuery('?returnurl=%2Fen_us%2Faccount%2Fprofile%3Ftab%3D1&selectedCause=x', ORIGIN).returnUrl).toBe(
      '/en_us/account/profile?tab=1&selectedCause=x',
    );
  });

  it('drops an invalid selectedCause', () => {
    expect(readEntryQuery('?returnurl=%2Fen_us%2Faccount%2Fprofile&selectedCause=%3Cscript%3E', ORIGIN).returnUrl).toBe('/en_us/account/profile');
  });

  it('searchWithoutNotice takes editPw out and keeps the rest; null when there is none', () => {
    expect(searchWithoutNotice('?editPw=true&isMobile=true')).toBe('?isMobile=true');
    expect(searchWithoutNotice('?editPw=true')).toBe('');
    expect(searchWithoutNotice('?isMobile=true')).toBeNull();
  });

  it('editPw=true asks for the password-updated notice', () => {
    expect(readEntryQuery('?editPw=true', ORIGIN).passwordUpdated).toBe(true);
    expect(readEntryQuery('?editPw=false', ORIGIN).passwordUpdated).toBe(false);
    expect(readEntryQuery('', ORIGIN).passwordUpdated).toBe(false);
  });
});
