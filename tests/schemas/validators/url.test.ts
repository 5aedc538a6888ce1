import { describe, expect, it } from 'vitest';
import {
  isCaptchaFlag,
  isCaptchaHostAttribute,
  isCaptchaLanguageCode,
  isExternalUrlShape,
  validateQueryParam,
  validateReturnUrl,
} from '../../../schemas/validators';

describe('§5 return URLs: the origin option', () => {
  it('accepts root-relative paths without an origin, but no absolute URL', () => {
    expect(validateReturnUrl('/en_us/account/profile')).toBeNull();
    expect(validateReturnUrl('https://portal.example/en_us/account/profile')).toEqual({ key: 'invalid' });
  });

  it.each([['javascript:alert(1)'], ['not a url'], ['ftp://portal.example']])('treats the unusable origin %j as no origin', (origin) => {
    expect(validateReturnUrl('https://portal.example/en_us/', { origin })).toEqual({ key: 'invalid' });
    expect(validateReturnUrl('/en_us/', { origin })).toBeNull();
  });

  it('takes only an http(s) origin, though another scheme has one too', () => {
    expect(validateReturnUrl('ws://portal.example/en_us/', { origin: 'ws://portal.example' })).toEqual({ key: 'invalid' });
  });

  it('accepts its own origin with a port', () => {
    expect(validateReturnUrl('http://localhost:8080/en_us/account/', { origin: 'http://localhost:8080' })).toBeNull();
    expect(validateReturnUrl('http://localhost:8081/en_us/account/', { origin: 'http://localhost:8080' })).toEqual({
      key: 'invalid',
    });
  });

  it.each([[undefined], [null], [42], [['/en_us/']], [{ href: '/en_us/' }]])('answers invalid for %j', (value) => {
    expect(validateReturnUrl(value)).toEqual({ key: 'invalid' });
    expect(validateQueryParam(value)).toEqual({ key: 'invalid' });
  });
});

describe('§5 return URLs and query parameters: every ASCII percent-encoding is read', () => {
  // Each value hides its payload behind one encoding, so each hex digit the decoder reads is needed.
  it.each([
    ['a%00b', 'NUL'],
    ['a%0ab', 'line feed, lower case'],
    ['a%0Bb', 'vertical tab'],
    ['a%0db', 'carriage return, lower case'],
    ['a%09b', 'tab'],
    ['a%1Fb', 'unit separator'],
    ['a%7Fb', 'DEL'],
    ['%2f%2fevil.example', 'slashes, lower case'],
    ['%2E%2E%2Fetc', 'dots and slash, upper case'],
    ['%3cscript%3e', 'tag, lower case'],
    ['%5Cevil', 'backslash'],
  ])('refuses the query parameter %j (%s)', (value) => {
    expect(validateQueryParam(value)).toEqual({ key: 'invalid' });
  });

  it.each([['/en_us/%20profile'], ['/en_us/%2e%2E/evil'], ['/en_us/%3Cb%3E']])('refuses the return URL %j', (value) => {
    expect(validateReturnUrl(value)).toEqual({ key: 'invalid' });
  });

  it('leaves a harmless encoded character alone', () => {
    expect(validateQueryParam('A%26B')).toBeNull();
    expect(validateReturnUrl('/en_us/account/search?q=a%26b%3Dc')).toBeNull();
  });
});

describe('§5 return URLs and query parameters: at most 2048 characters', () => {
  it('accepts 2048 and refuses 2049', () => {
    expect(validateQueryParam('a'.repeat(2048))).toBeNull();
    expect(validateQueryParam('a'.repeat(2049))).toEqual({ key: 'invalid' });
    const path = (length: number) => `/en_us/${'a'.repeat(length - '/en_us/'.length)}`;
    expect(validateReturnUrl(path(2048))).toBeNull();
    expect(validateReturnUrl(path(2049))).toEqual({ key: 'invalid' });
  });

  it('refuses text that is not printable ASCII in a return URL (it must come encoded)', () => {
    expect(validateReturnUrl('/en_us/café')).toEqual({ key: 'invalid' });
    expect(validateReturnUrl('/en_us/caf%C3%A9')).toBeNull();
  });

  it('takes only a string as the origin', () => {
    const origin = new URL('https://portal.example') as unknown as string;
    expect(validateReturnUrl('https://portal.example/en_us/', { origin })).toEqual({ key: 'invalid' });
    expect(validateReturnUrl('/en_us/', { origin })).toBeNull();
  });
});

describe('§5 external URLs look like a host with an optional path', () => {
  it.each([
    ['example.com', true],
    ['www.example.com/path/to', true],
    ['https://example.com', true],
    ['http://sub.example.co.uk:8080/x?y=1', true],
    ['shop.example.org/', true],
    ['javascript:alert(1)', false],
    ['not a url', false],
    ['example', false],
    ['//example.com', false],
    ['ftp://example.com', false],
    ['https://', false],
    ['exa mple.com', false],
    ['example.com/\\evil', false],
    ['example.com/<script>', false],
    [42, false],
    [new URL('https://example.com/'), false],
  ])('%j: %s', (value, expected) => {
    expect(isExternalUrlShape(value)).toBe(expected);
  });
});

describe('§5 captcha config', () => {
  it.each([
    ['en', true],
    ['pt-BR', true],
    ['zh_hk', true],
    ['en us', false],
    ['en"onload', false],
    ['', false],
    ['"en', false],
    [42, false],
    [['en'], false],
  ])('language code %j: %s', (value, expected) => {
    expect(isCaptchaLanguageCode(value)).toBe(expected);
  });

  it.each([
    ['true', true],
    ['false', true],
    ['TRUE', false],
    ['1', false],
    [true, false],
  ])('flag %j: %s', (value, expected) => {
    expect(isCaptchaFlag(value)).toBe(expected);
  });

  it.each([
    ['portal.example', true],
    ['js.hcaptcha.com:443', true],
    ['-portal.example', false],
    ['.portal.example', false],
    ['portal.example" onload="x', false],
    ['', false],
    ['p', true],
    [42, false],
    [['portal.example'], false],
  ])('host attribute %j: %s', (value, expected) => {
    expect(isCaptchaHostAttribute(value)).toBe(expected);
  });
});
