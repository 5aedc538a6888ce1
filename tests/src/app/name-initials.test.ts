import { describe, expect, it } from 'vitest';
import { nameInitials } from '../../../src/app/name-initials';

describe('nameInitials: the first grapheme of each trimmed name', () => {
  it('skips the spaces at either end ("  Zoë  " gives Z, not a space)', () => {
    expect(nameInitials('  Zoë  ', '  Núñez ')).toBe('ZN');
  });

  it('keeps a letter with its combining accent, and an emoji, whole', () => {
    expect(nameInitials('E\u0301milie', 'Durand')).toBe('E\u0301D');
    expect(nameInitials('👩🏽‍💻 Ana', 'Lee')).toBe('👩🏽‍💻L');
  });

  it('a missing or blank name gives nothing for it', () => {
    expect(nameInitials('Emily', null)).toBe('E');
    expect(nameInitials('   ', undefined)).toBe('');
  });
});
