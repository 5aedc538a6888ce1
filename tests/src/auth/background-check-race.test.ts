// @vitest-environment jsdom
import { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, expect, it } from 'vitest';
import { contentApi } from '../../../src/api/content-api';
import { gatewayHttp } from '../../../src/api/gateway-api';
import { userAttributeApi } from '../../../src/api/user-attribute-api';
import { documentCookieJar } from '../../../src/app/browser-cookies';
import { browserLocalStorage } from '../../../src/app/browser-storage';
import { performAuthEffect } from '../../../src/auth/auth-effects';
import { createStore } from '../../../src/store';

/**
 * SPEC §4: a person signed in on a site where they have no attributes yet gets USER_NOT_FOUND, the app saves
 * the site locale and checks again. RTK Query holds the save's tag invalidation back while other requests
 * (the screen's content) are still out, and runs it when the last one lands, which can be the second check
 * itself. Seen in the browser tests under load: the check answered 200, the app read "failed" and sent the
 * person to sign in. Only the network is faked (an axios adapter), as in the other api tests.
 */
let releaseContent: () => void = () => undefined;
const contentReleased = new Promise<void>((resolve) => (releaseContent = resolve));
const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
  const url = String(config.url);
  const answer = (status: number, data: unknown) => {
    const response = { data, status, statusText: '', headers: {}, config, request: {} };
    if (status >= 400) throw new AxiosError('failed', 'ERR_BAD_RESPONSE', config, {}, response);
    return response;
  };
  if (url === 'bin/aem/rest') {
    await contentReleased;
    return answer(200, { content: { title: 'Profile' } });
  }
  if (url === 'user-attribute/v2/user/unionbank') return answer(200, { userSites: {} });
  if (url === 'user-attribute/user/background/unionbank') {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return answer(200, { passesBackgroundCheck: true });
  }
  return answer(404, { error: 'NOT_FOUND', message: 'not in this test' });
};

afterEach(() => {
  gatewayHttp.defaults.adapter = undefined;
  window.localStorage.clear();
});

it("a background check that answers while the site-locale save's invalidation waits is read as answered, not failed", async () => {
  gatewayHttp.defaults.adapter = adapter;
  const services = { cookies: documentCookieJar(), localStore: browserLocalStorage(), goToSignIn: () => undefined };
  const store = createStore(services);
  const content = store.dispatch(contentApi.endpoints.getContent.initiate({ siteId: 'unionbank', locale: 'en_us', contentType: 'profile' }));
  await store.dispatch(userAttributeApi.endpoints.saveUserSiteAttributes.initiate({ siteId: 'unionbank', attributes: { locale: 'en_us' } }));

  const check = performAuthEffect({ type: 'CALL_BACKGROUND_CHECK', siteId: 'unionbank' }, store.dispatch, services);
  // The content lands while the check is out, so the check is the last request and the invalidation follows it.
  await new Promise((resolve) => setTimeout(resolve, 5));
  releaseContent();
  await content;

  expect(await check).toEqual({ type: 'BACKGROUND_CHECK_ANSWERED', siteId: 'unionbank', passesBackgroundCheck: true });
  content.unsubscribe();
});
