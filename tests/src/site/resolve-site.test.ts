import { describe, expect, it } from 'vitest';
import { hostBrandLabel, resolveSite } from '../../../src/site/resolve-site';

// SPEC §1 (site id from host plus issuer, or host plus locale on promotions hosts; -shdw removed;
// siteid query override) and §2 (base paths, locale xx_yy default en_us, context.html, routes).
type Case = [host: string, path: string, search: string, siteId: string, locale: string, route: string | null];

const cases: Case[] = [
  // Shared hosts: the issuer names the site.
  ['localhost:8080', '/firstbank/en_us/account/login', '', 'firstbank', 'en_us', 'login'],
  ['localhost:8080', '/bancosol/pt_br/account/registration', '', 'bancosol', 'pt_br', 'registration'],
  ['127.0.0.1:8080', '/dohabank/ar_qa/account/profile', '', 'dohabank', 'ar_qa', 'profile'],
  ['www.rewards.example', '/eurobank/de_de/account/edit-pan', '', 'eurobank', 'de_de', 'edit-pan'],
  ['portal.rewards.example', '/harbourbank/zh_hk/account/site-settings', '', 'harbourbank', 'zh_hk', 'site-settings'],
  ['[::1]:8080', '/northbank/fr_ca/account/password', '', 'northbank', 'fr_ca', 'password'],
  // Branded hosts: host label plus issuer.
  ['firstbank.rewards.example', '/card/en_us/account/login', '', 'firstbank_card', 'en_us', 'login'],
  ['first-bank.rewards.example', '/card/en_us/account/login', '', 'first_bank_card', 'en_us', 'login'],
  ['firstbank-shdw.rewards.example', '/card/en_us/account/login', '', 'firstbank_card', 'en_us', 'login'],
  ['FIRSTBANK.Rewards.Example:443', '/Card/EN_US/account/login', '', 'firstbank_card', 'en_us', 'login'],
  // /{locale}/account/: the host alone names the site.
  ['firstbank.rewards.example', '/en_us/account/login', '', 'firstbank', 'en_us', 'login'],
  ['firstbank-shdw.rewards.example', '/en_us/account/profile', '', 'firstbank', 'en_us', 'profile'],
  ['localhost', '/en_us/account/login', '', 'default', 'en_us', 'login'],
  // Promotions hosts: host plus locale.
  ['promotions.rewards.example', '/en_us/account/login', '', 'promotions_en_us', 'en_us', 'login'],
  ['promotions-shdw.rewards.example', '/es_mx/account/registration', '', 'promotions_es_mx', 'es_mx', 'registration'],
  ['promotions.rewards.example', '/anyissuer/pt_br/account/login', '', 'promotions_pt_br', 'pt_br', 'login'],
  // siteid override.
  ['localhost', '/firstbank/en_us/account/login', '?siteid=unionbank', 'unionbank', 'en_us', 'login'],
  ['promotions.rewards.example', '/en_us/account/login', '?siteid=VPPCards', 'vppcards', 'en_us', 'login'],
  ['localhost', '/firstbank/en_us/account/login', '?siteid=%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'firstbank', 'en_us', 'login'],
  ['localhost', '/firstbank/en_us/account/login', '?siteid=', 'firstbank', 'en_us', 'login'],
  ['localhost', '/firstbank/en_us/account/login', '?siteid=a%20b', 'firstbank', 'en_us', 'login'],
  // Routes: trailing slash stripped; unknown and nested routes are not routes.
  ['localhost', '/firstbank/en_us/account/login/', '', 'firstbank', 'en_us', 'login'],
  ['localhost', '/firstbank/en_us/account/', '', 'firstbank', 'en_us', null],
  ['localhost', '/firstbank/en_us/account/no-such-route', '', 'firstbank', 'en_us', null],
  ['localhost', '/firstbank/en_us/account/login/extra', '', 'firstbank', 'en_us', null],
  ['localhost', '/firstbank/en_us/account/Login', '', 'firstbank', 'en_us', null],
  ['localhost', '/sabana/es_co/account/login-form', '', 'sabana', 'es_co', 'login-form'],
  ['localhost', '/bancosol/pt_br/account/passcode-preference', '', 'bancosol', 'pt_br', 'passcode-preference'],
  // Bad locales fall back to en_us; the site still resolves.
  ['localhost', '/firstbank/english/account/login', '', 'firstbank', 'en_us', 'login'],
  ['localhost', '/firstbank/en-us/account/login', '', 'firstbank', 'en_us', 'login'],
  ['localhost', '/firstbank/e1_us/account/login', '', 'firstbank', 'en_us', 'login'],
  // ADR 0013: an xx_yy code the locale table does not know is en_us too, never guessed from its language.
  ['localhost', '/firstbank/xx_yy/account/login', '', 'firstbank', 'en_us', 'login'],
  ['localhost', '/bancosol/pt_xx/account/login', '', 'bancosol', 'en_us', 'login'],
  ['promotions.rewards.example', '/zz_zz/account/login', '', 'promotions_en_us', 'en_us', 'login'],
  // Every region of the table resolves as it is (SPEC §9 over 150 locales).
  ['localhost', '/dohabank/ar_ae/account/login', '', 'dohabank', 'ar_ae', 'login'],
  ['localhost', '/harbourbank/zh_tw/account/login', '', 'harbourbank', 'zh_tw', 'login'],
  ['localhost', '/eurobank/PT_PT/account/login', '', 'eurobank', 'pt_pt', 'login'],
  // Bad issuers are ignored, never reflected.
  ['localhost', '/%3Cimg%20src%3Dx%3E/en_us/account/login', '', 'default', 'en_us', 'login'],
  ['localhost', '/..%2F..%2Fetc/en_us/account/login', '', 'default', 'en_us', 'login'],
  ['localhost', `/${'x'.repeat(80)}/en_us/account/login`, '', 'default', 'en_us', 'login'],
  // Not account paths.
  ['localhost', '/', '', 'default', 'en_us', null],
  ['localhost', '/context.html', '', 'default', 'en_us', null],
  ['localhost', '/pt_br/index.html', '', 'default', 'pt_br', null],
  ['localhost', '/a/b/c/account/login', '', 'default', 'en_us', null],
  // An unknown site is resolved as named; the config service answers it with the default (SPEC §7).
  ['localhost', '/nosuchbank/en_us/account/login', '', 'nosuchbank', 'en_us', 'login'],
];

describe('resolveSite (SPEC §1, §2)', () => {
  it('has at least 30 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases)('%s %s%s -> %s %s %s', (host, pathname, search, siteId, locale, route) => {
    const resolved = resolveSite({ host, pathname, search });
    expect({ siteId: resolved.siteId, locale: resolved.locale, route: resolved.route }).toEqual({ siteId, locale, route });
  });

  it('explains why it ignored a part of the URL', () => {
    expect(resolveSite({ host: 'localhost', pathname: '/firstbank/en-us/account/login' }).warnings).toEqual(['locale segment is not xx_yy; using en_us']);
    expect(resolveSite({ host: 'localhost', pathname: '/x/en_us/account/login', search: '?siteid=<b>' }).warnings).toEqual([
      'siteid query parameter is not a valid site id; ignored',
    ]);
    expect(resolveSite({ host: 'localhost', pathname: '/firstbank/xx_yy/account/login' }).warnings).toEqual(['locale xx_yy is not supported; using en_us']);
    expect(resolveSite({ host: 'localhost', pathname: '/firstbank/en_us/account/login' }).warnings).toEqual([]);
  });

  it('keeps the base path of the URL for sibling links, encoded', () => {
    expect(resolveSite({ host: 'localhost', pathname: '/firstbank/en_us/account/login' }).basePath).toBe('/firstbank/en_us/account/');
    expect(resolveSite({ host: 'localhost', pathname: '/en_us/account/login' }).basePath).toBe('/en_us/account/');
    expect(resolveSite({ host: 'localhost', pathname: '/%3Cb%3E/en_us/account/login' }).basePath).toBe('/%3Cb%3E/en_us/account/');
  });
});

describe('hostBrandLabel', () => {
  it.each([
    ['localhost:8080', null],
    ['10.0.0.1', null],
    ['www.bank.example', null],
    ['bank-shdw.example', 'bank'],
    ['my-bank.example', 'my_bank'],
    ['-bad.example', null],
    ['', null],
  ])('%s -> %s', (host, label) => {
    expect(hostBrandLabel(host)).toBe(label);
  });
});
