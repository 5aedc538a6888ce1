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
  ])('host attribute %j: %s', (value, expected) => {
    expect(isCaptchaHostAttribute(value)).toBe(expected);
  });
});
