import { describe, expect, it, vi } from 'vitest';
import { HCAPTCHA_SITEVERIFY_URL, hcaptchaVerifier, offlineCaptchaVerifier } from '../../../gateway/account/captcha-verifier';

/** A stand-in for hCaptcha's siteverify: records what was sent, answers what the test says. No network. */
function fakeSiteverify(answer: () => Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return answer();
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

const json = (body: unknown, status = 200) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

// SPEC §7 captcha; ADR 0013: hCaptcha's siteverify when HCAPTCHA_SECRET is set.
describe('hcaptchaVerifier', () => {
  it('posts secret, token, caller address and site key form-encoded to siteverify, and trusts success true', async () => {
    const site = fakeSiteverify(() => json({ success: true, hostname: 'rewards.example' }));
    const verifier = hcaptchaVerifier({ secret: '0xsecret', siteKey: 'site-key-1', fetch: site.fetch });
    await expect(verifier.verify('P1_token', '203.0.113.9')).resolves.toBe(true);
    expect(site.calls).toHaveLength(1);
    expect(site.calls[0]!.url).toBe(HCAPTCHA_SITEVERIFY_URL);
    expect(site.calls[0]!.init.method).toBe('POST');
    expect(new Headers(site.calls[0]!.init.headers).get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(String(site.calls[0]!.init.body)))).toEqual({
      secret: '0xsecret',
      response: 'P1_token',
      remoteip: '203.0.113.9',
      sitekey: 'site-key-1',
    });
    expect(site.calls[0]!.init.signal).toBeInstanceOf(AbortSignal);
  });

  it('refuses a token hCaptcha calls unsolved', async () => {
    const site = fakeSiteverify(() => json({ success: false, 'error-codes': ['invalid-input-response'] }));
    await expect(hcaptchaVerifier({ secret: 's', fetch: site.fetch }).verify('bad', '203.0.113.9')).resolves.toBe(false);
  });

  it('never asks hCaptcha about an empty token', async () => {
    const site = fakeSiteverify(() => json({ success: true }));
    await expect(hcaptchaVerifier({ secret: 's', fetch: site.fetch }).verify('  ', '203.0.113.9')).resolves.toBe(false);
    expect(site.calls).toHaveLength(0);
  });

  it.each([
    ['an outage', () => Promise.reject(new TypeError('fetch failed')), 'hCaptcha siteverify could not be reached'],
    ['a timeout', () => Promise.reject(new DOMException('The operation timed out.', 'TimeoutError')), 'hCaptcha siteverify timed out'],
    ['a 500', () => json({ success: true }, 500), 'hCaptcha siteverify answered 500'],
    ['an answer that is not JSON', () => Promise.resolve(new Response('<html>', { status: 200 })), 'hCaptcha siteverify answered something that is not JSON'],
  ])('fails closed on %s and says why', async (_case, answer, reason) => {
    const onFailure = vi.fn();
    const site = fakeSiteverify(answer);
    await expect(hcaptchaVerifier({ secret: 's', fetch: site.fetch, onFailure }).verify('P1_token', '203.0.113.9')).resolves.toBe(false);
    expect(onFailure).toHaveBeenCalledWith(reason);
  });

  it('gives up after its timeout instead of holding the request open', async () => {
    const hanging: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)));
    await expect(hcaptchaVerifier({ secret: 's', fetch: hanging, timeoutMs: 10 }).verify('P1_token', '203.0.113.9')).resolves.toBe(false);
  });
});

describe('offlineCaptchaVerifier (development and tests)', () => {
  it('accepts any non-empty token and nothing else', async () => {
    await expect(offlineCaptchaVerifier.verify('offline-development-captcha', '127.0.0.1')).resolves.toBe(true);
    await expect(offlineCaptchaVerifier.verify(' ', '127.0.0.1')).resolves.toBe(false);
  });
});
