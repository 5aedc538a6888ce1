import { describe, expect, it, vi } from 'vitest';
import { ANDROID_STORE_FALLBACK_MS, MOBILE_APP, mobileDeviceOf, openMobileApp } from '../../../src/app/mobile-deep-link';

describe('§2 mobile deep link', () => {
  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', 'ios'],
    ['Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X)', 'ios'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8)', 'android'],
    ['Mozilla/5.0 (X11; Linux x86_64) Chrome/120', null],
  ])('%s is %s', (userAgent, device) => {
    expect(mobileDeviceOf(userAgent)).toBe(device);
  });

  it('iOS opens the app only', () => {
    const assign = vi.fn();
    const setTimeout = vi.fn();
    openMobileApp('rewardsportal://home', 'ios', { assign, setTimeout });
    expect(assign.mock.calls).toEqual([['rewardsportal://home']]);
    expect(setTimeout).not.toHaveBeenCalled();
  });

  it('Android opens the app, then the store page after 250 ms (§9)', () => {
    vi.useFakeTimers();
    const assign = vi.fn();
    openMobileApp('rewardsportal://home', 'android', { assign, setTimeout: (run, ms) => globalThis.setTimeout(run, ms) });
    vi.advanceTimersByTime(ANDROID_STORE_FALLBACK_MS - 1);
    expect(assign.mock.calls).toEqual([['rewardsportal://home']]);
    vi.advanceTimersByTime(1);
    expect(assign.mock.calls).toEqual([['rewardsportal://home'], [MOBILE_APP.androidStoreUrl]]);
    vi.useRealTimers();
  });
});
