// @vitest-environment jsdom
import { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gatewayHttp } from '../../../src/api/gateway-api';
import { siteConfigApi } from '../../../src/api/site-config-api';
import { documentCookieJar } from '../../../src/app/browser-cookies';
import { browserLocalStorage } from '../../../src/app/browser-storage';
import { createStore } from '../../../src/store';
import firstbank from '../../../fixtures/sites/firstbank.json';
import promotions from '../../../fixtures/sites/promotions_en_us.json';
import defaultSite from '../../../fixtures/default-site.json';

/** SPEC §7 site config and its promotions hosts' variant, with only the network faked. */
type Answer = { status: number; data?: unknown };
const calls: string[] = [];
let answers: Record<string, Answer>;

const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
  const url = String(config.url);
  calls.push(url);
  const answer = answers[url] ?? { status: 404, data: { error: 'NOT_FOUND', message: 'no' } };
  const response = { data: answer.data, status: answer.status, statusText: '', headers: {}, config, request: {} };
  if (answer.status >= 400) throw new AxiosError('failed', 'ERR_BAD_RESPONSE', config, {}, response);
  return response;
};

function load(siteId: string) {
  const store = createStore({ cookies: documentCookieJar(), localStore: browserLocalStorage(), goToSignIn: () => undefined });
  return store.dispatch(siteConfigApi.endpoints.getSiteConfig.initiate(siteId));
}

beforeEach(() => {
  gatewayHttp.defaults.adapter = adapter;
  calls.length = 0;
  answers = {
    'site-config-service/config/site/firstbank': { status: 200, data: firstbank },
    'site-config-service/config/site/promotions_fr_fr': { status: 200, data: defaultSite },
    '/en_us/account/configurations/promotions-en_us.json': { status: 200, data: promotions },
  };
});
afterEach(() => {
  window.localStorage.clear();
});

describe('getSiteConfig (SPEC §7)', () => {
  it("reads a site's configuration from the site-config service", async () => {
    expect((await load('firstbank')).data?.siteId).toBe('firstbank');
    expect(calls).toEqual(['site-config-service/config/site/firstbank']);
  });

  it('SPEC §1/§7: a promotions site (host plus locale) reads the page-root promotions configuration, not the service', async () => {
    expect((await load('promotions_en_us')).data?.siteId).toBe('promotions_en_us');
    expect(calls).toEqual(['/en_us/account/configurations/promotions-en_us.json']);
  });

  it("SPEC §8: when the promotions configuration fails, the service's answer (its default) is used silently", async () => {
    expect((await load('promotions_fr_fr')).data?.siteId).toBe(defaultSite.siteId);
    expect(calls).toEqual(['/fr_fr/account/configurations/promotions-fr_fr.json', 'site-config-service/config/site/promotions_fr_fr']);
  });
});
