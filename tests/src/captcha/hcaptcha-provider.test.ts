// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configuredCaptchaProvider } from '../../../src/captcha/configured-captcha';
import {
  CAPTCHA_LOAD_DELAY_MS,
  createHcaptchaProvider,
  HCAPTCHA_ONLOAD_CALLBACK,
  HCAPTCHA_SCRIPT_URL,
  type HcaptchaApi,
} from '../../../src/captcha/hcaptcha-provider';
import { OFFLINE_DEVELOPMENT_CAPTCHA_TOKEN } from '../../../src/app/offline-development-captcha';

type TestWindow = Window & { hcaptcha?: HcaptchaApi } & Record<string, unknown>;
const win = window as unknown as TestWindow;

/** hCaptcha's API as a fake: answers the queued results of `execute` in order, records renders and resets. */
function fakeHcaptcha(results: (() => Promise<{ response: string }>)[]) {
  const renders: { container: HTMLElement; options: Record<string, unknown> }[] = [];
  const resets: string[] = [];
  const api: HcaptchaApi = {
    render: (container, options) => {
      renders.push({ container, options });
      return `widget-${renders.length}`;
    },
    execute: () => (results.shift() ?? (() => Promise.reject(new Error('no result queued'))))(),
    reset: (id) => void resets.push(id),
  };
  return { api, renders, resets };
}

const scripts = () => [...document.head.querySelectorAll('script')];

/** What hCaptcha's script does once the browser has run it: define the API, then call the onload global. */
function scriptRuns(api: HcaptchaApi): void {
  win.hcaptcha = api;
  (win[HCAPTCHA_ONLOAD_CALLBACK] as () => void)();
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  delete win.hcaptcha;
  delete win[HCAPTCHA_ONLOAD_CALLBACK];
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

// SPEC §7 captcha, §8 captcha errors, §9 load delay 1 ms.
describe('the hCaptcha provider', () => {
  it('throws "hCAPTCHA site key not defined" without a site key (SPEC §8)', () => {
    expect(() => createHcaptchaProvider({ siteKey: undefined })).toThrow('hCAPTCHA site key not defined');
    expect(() => createHcaptchaProvider({ siteKey: '' })).toThrow('hCAPTCHA site key not defined');
  });

  it('loads the script from hCaptcha 1 ms after the first token is asked for, never before', async () => {
    const provider = createHcaptchaProvider({ siteKey: 'site-key-1', window: win });
    expect(scripts()).toHaveLength(0);
    const token = provider.token();
    expect(scripts()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(CAPTCHA_LOAD_DELAY_MS);
    expect(scripts().map((script) => script.src)).toEqual([`${HCAPTCHA_SCRIPT_URL}?render=explicit&onload=${HCAPTCHA_ONLOAD_CALLBACK}`]);
    const hcaptcha = fakeHcaptcha([() => Promise.resolve({ response: 'P1_first' })]);
    scriptRuns(hcaptcha.api);
    await expect(token).resolves.toBe('P1_first');
  });

  it('renders one invisible widget with the site key and the page language, and resets it after each token', async () => {
    const hcaptcha = fakeHcaptcha([() => Promise.resolve({ response: 'P1_first' }), () => Promise.resolve({ response: 'P1_second' })]);
    win.hcaptcha = hcaptcha.api;
    const provider = createHcaptchaProvider({ siteKey: 'site-key-1', language: () => 'ar-QA', window: win });
    await expect(provider.token()).resolves.toBe('P1_first');
    await expect(provider.token()).resolves.toBe('P1_second');
    expect(hcaptcha.renders).toHaveLength(1);
    expect(hcaptcha.renders[0]!.options).toEqual({ sitekey: 'site-key-1', size: 'invisible', hl: 'ar-QA' });
    expect(document.body.contains(hcaptcha.renders[0]!.container)).toBe(true);
    expect(hcaptcha.resets).toEqual(['widget-1', 'widget-1']);
    expect(scripts()).toHaveLength(0);
  });

  it('never puts a language that is not word characters and hyphens into the widget (SPEC §5)', async () => {
    const hcaptcha = fakeHcaptcha([() => Promise.resolve({ response: 'P1_first' })]);
    win.hcaptcha = hcaptcha.api;
    await createHcaptchaProvider({ siteKey: 'k', language: () => 'en"><script>', window: win }).token();
    expect(hcaptcha.renders[0]!.options).not.toHaveProperty('hl');
  });

  it('resets the widget on an error and rejects, so the gateway client sends an empty token (SPEC §7, §8)', async () => {
    const hcaptcha = fakeHcaptcha([() => Promise.reject(new Error('challenge-closed')), () => Promise.resolve({ response: 'P1_retry' })]);
    win.hcaptcha = hcaptcha.api;
    const provider = createHcaptchaProvider({ siteKey: 'site-key-1', window: win });
    await expect(provider.token()).rejects.toThrow('challenge-closed');
    expect(hcaptcha.resets).toEqual(['widget-1']);
    await expect(provider.token()).resolves.toBe('P1_retry');
  });

  it('rejects when the script cannot load, and tries to load it again for the next token', async () => {
    const provider = createHcaptchaProvider({ siteKey: 'site-key-1', window: win });
    const first = provider.token();
    await vi.advanceTimersByTimeAsync(CAPTCHA_LOAD_DELAY_MS);
    scripts()[0]!.dispatchEvent(new Event('error'));
    await expect(first).rejects.toThrow('The hCaptcha script could not be loaded');
    const second = provider.token();
    await vi.advanceTimersByTimeAsync(CAPTCHA_LOAD_DELAY_MS);
    expect(scripts()).toHaveLength(2);
    scriptRuns(fakeHcaptcha([() => Promise.resolve({ response: 'P1_later' })]).api);
    await expect(second).resolves.toBe('P1_later');
  });
});

describe('configuredCaptchaProvider (ADR 0013)', () => {
  it('is the offline development provider when the build has no site key: no remote script', async () => {
    const provider = configuredCaptchaProvider(undefined, () => 'en-US');
    await expect(provider.token()).resolves.toBe(OFFLINE_DEVELOPMENT_CAPTCHA_TOKEN);
    expect(configuredCaptchaProvider('  ', () => 'en-US')).toBe(provider);
    await vi.advanceTimersByTimeAsync(10);
    expect(scripts()).toHaveLength(0);
  });

  it('is hCaptcha when the build has a site key', async () => {
    const hcaptcha = fakeHcaptcha([() => Promise.resolve({ response: 'P1_real' })]);
    win.hcaptcha = hcaptcha.api;
    await expect(configuredCaptchaProvider('site-key-1', () => 'pt-BR').token()).resolves.toBe('P1_real');
    expect(hcaptcha.renders[0]!.options).toMatchObject({ sitekey: 'site-key-1', hl: 'pt-BR' });
  });
});
