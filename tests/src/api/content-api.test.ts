// @vitest-environment jsdom
import { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentApi } from '../../../src/api/content-api';
import { gatewayHttp } from '../../../src/api/gateway-api';
import { documentCookieJar } from '../../../src/app/browser-cookies';
import { browserLocalStorage } from '../../../src/app/browser-storage';
import { createStore } from '../../../src/store';
import firstbank from '../../../fixtures/sites/firstbank.json';
import vppcards from '../../../fixtures/sites/vppcards.json';

/** SPEC §7 content calls with only the network faked: an axios adapter answering like the gateway. */
type Answer = { status: number; data?: unknown };
const calls: { url: string; params: Record<string, unknown> }[] = [];
let answerFor: (url: string) => Answer | undefined;

const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
  const url = String(config.url);
  calls.push({ url, params: (config.params ?? {}) as Record<string, unknown> });
  const answer: Answer =
    answerFor(url) ??
    (url === 'site-config-service/config/site/firstbank'
      ? { status: 200, data: firstbank }
      : url === 'site-config-service/config/site/vppcards'
        ? { status: 200, data: vppcards }
        : url === 'bin/aem/rest'
          ? { status: 200, data: { content: { title: 'From AEM', subtitle: 'AEM subtitle' } } }
          : url.startsWith('cmsapi/')
            ? { status: 200, data: { content: { title: 'From the CMS' } } }
            : { status: 404, data: { error: 'NOT_FOUND', message: 'no' } });
  const response = { data: answer.data, status: answer.status, statusText: '', headers: {}, config, request: {} };
  if (answer.status >= 400) throw new AxiosError('failed', 'ERR_BAD_RESPONSE', config, {}, response);
  return response;
};

function load(siteId: string) {
  const store = createStore({ cookies: documentCookieJar(), localStore: browserLocalStorage(), goToSignIn: () => undefined });
  return store.dispatch(contentApi.endpoints.getContent.initiate({ siteId, locale: 'pt_br', contentType: 'cards' }));
}

beforeEach(() => {
  gatewayHttp.defaults.adapter = adapter;
  calls.length = 0;
  answerFor = () => undefined;
});
afterEach(() => {
  window.localStorage.clear();
});

describe('getContent (SPEC §7 content)', () => {
  it('asks version 2 for a site with the default cms tenant, and nothing of the CMS', async () => {
    const result = await load('firstbank');
    expect(result.data).toEqual({ title: 'From AEM', subtitle: 'AEM subtitle' });
    const aem = calls.filter((call) => call.url === 'bin/aem/rest');
    expect(aem.map((call) => call.params)).toEqual([{ version: 2, contentType: 'cards', level: -1, locale: 'pt_br', siteId: 'firstbank' }]);
    expect(calls.some((call) => call.url.startsWith('cmsapi/'))).toBe(false);
  });

  it('asks version 3 and the cmsapi path for the vpp tenant (vppcards), the CMS texts winning', async () => {
    const result = await load('vppcards');
    expect(result.data).toEqual({ title: 'From the CMS', subtitle: 'AEM subtitle' });
    expect(calls.find((call) => call.url === 'bin/aem/rest')?.params).toMatchObject({ version: 3, siteId: 'vppcards' });
    expect(calls.filter((call) => call.url.startsWith('cmsapi/'))).toEqual([
      { url: 'cmsapi/content.data.json/vpp/vppcards/vppcards/cards', params: { locale: 'pt_br' } },
    ]);
  });

  it.each([
    ['the AEM call', 'bin/aem/rest'],
    ['the CMS call', 'cmsapi/content.data.json/vpp/vppcards/vppcards/cards'],
  ])('fails when %s fails, so the screens use the bundled texts', async (_case, failing) => {
    answerFor = (url) => (url === failing ? { status: 500, data: { error: 'INTERNAL', message: 'down' } } : undefined);
    const result = await load('vppcards');
    expect(result.data).toBeUndefined();
    expect(result.error).toMatchObject({ status: 500 });
  });

  it('reads version 2 when the site configuration cannot be read', async () => {
    answerFor = (url) => (url.startsWith('site-config-service/') ? { status: 502 } : undefined);
    await load('vppcards');
    expect(calls.find((call) => call.url === 'bin/aem/rest')?.params).toMatchObject({ version: 2 });
  });
});
