// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AxiosError, type AxiosAdapter } from 'axios';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPortalRouter } from '../../../src/App';
import {
  alertsClosed,
  alertsSlice,
  noticesOnPage,
  notificationDismissed,
  notificationShown,
  pageChanged,
  type AlertsState,
} from '../../../src/app/alerts-slice';
import type { AppServices } from '../../../src/app/app-services';
import { documentCookieJar } from '../../../src/app/browser-cookies';
import { browserLocalStorage } from '../../../src/app/browser-storage';
import { gatewayHttp } from '../../../src/api/gateway-api';
import { createStore, type AppStore } from '../../../src/store';
import enUsContent from '../../../fixtures/content/en_us.json';
import firstbank from '../../../fixtures/sites/firstbank.json';

/** SPEC §2 notification alerts: announced, dismissable, gone after the holder moves on unless meant for the next page. */
const reduce = alertsSlice.reducer;
const saved = { id: 'profile-saved', kind: 'success', message: 'Your profile has been saved.' } as const;

function onPage(path: string, ...actions: Parameters<typeof reduce>[1][]): AlertsState {
  return actions.reduce(reduce, reduce(undefined, pageChanged({ path })));
}

describe('alerts slice: notice lifetimes', () => {
  it('a page notice goes when the path changes, not when the same path is seen again', () => {
    const shown = onPage('/a/profile', notificationShown(saved), pageChanged({ path: '/a/profile' }));
    expect(shown.notifications.map((notice) => notice.id)).toEqual(['profile-saved']);
    expect(reduce(shown, pageChanged({ path: '/a/edit-pan' })).notifications).toEqual([]);
  });

  it('a next-page notice survives the navigation it was raised for, once', () => {
    const raised = onPage('/a/edit-pan', notificationShown({ id: 'card-added', kind: 'success', message: 'Card added', lifetime: 'next-page' }));
    const landed = reduce(raised, pageChanged({ path: '/a/profile' }));
    expect(landed.notifications).toEqual([{ id: 'card-added', kind: 'success', message: 'Card added', lifetime: 'page' }]);
    expect(reduce(landed, pageChanged({ path: '/a/cashback-statement' })).notifications).toEqual([]);
  });

  it('a screen drawn before the store has seen its path shows only what pageChanged will keep', () => {
    const nextPage = { id: 'card-added', kind: 'success', message: 'Card added', lifetime: 'next-page' } as const;
    const raised = onPage('/a/edit-pan', notificationShown(saved), notificationShown(nextPage));
    expect(noticesOnPage(raised, '/a/edit-pan').map((notice) => notice.id)).toEqual(['profile-saved', 'card-added']);
    expect(noticesOnPage(raised, '/a/profile').map((notice) => notice.id)).toEqual(['card-added']);
    const landed = reduce(raised, pageChanged({ path: '/a/profile' }));
    expect(noticesOnPage(landed, '/a/profile').map((notice) => notice.id)).toEqual(['card-added']);
    expect(noticesOnPage(landed, '/a/edit-profile')).toEqual([]);
  });

  it('the first page seen keeps what was raised before it', () => {
    const state = [notificationShown(saved), pageChanged({ path: '/a/profile' })].reduce<AlertsState | undefined>(reduce, undefined);
    expect(state?.notifications).toHaveLength(1);
  });

  it('dismissing removes only that notice; dismissing it again or an unknown id changes nothing', () => {
    const error = { id: 'card-removed', kind: 'error', message: 'Remove failed' } as const;
    const both = onPage('/a/edit-pan', notificationShown(saved), notificationShown(error));
    const once = reduce(both, notificationDismissed({ id: 'profile-saved' }));
    expect(once.notifications).toEqual([error]);
    expect(reduce(once, notificationDismissed({ id: 'profile-saved' }))).toEqual(once);
    expect(reduce(once, notificationDismissed({ id: 'no-such-notice' }))).toEqual(once);
  });

  it('§8 closing the alert clears error and notifications but still knows the page', () => {
    const closed = reduce(onPage('/a/profile', notificationShown(saved)), alertsClosed());
    expect(closed).toEqual({ globalError: null, notifications: [], page: '/a/profile' });
  });
});

const content = enUsContent as Record<string, Record<string, string>>;
const fixtureAdapter: AxiosAdapter = async (config) => {
  const url = String(config.url);
  const answer = url.startsWith('site-config-service/')
    ? { status: 200, data: firstbank as unknown }
    : url === 'bin/aem/rest'
      ? { status: 200, data: { content: content[(config.params as { contentType: string }).contentType] } as unknown }
      : { status: 404, data: { error: 'NOT_IMPLEMENTED', message: 'later' } as unknown };
  const response = { data: answer.data, status: answer.status, statusText: '', headers: {}, config, request: {} };
  if (answer.status >= 400) throw new AxiosError('failed', 'ERR_BAD_RESPONSE', config, {}, response);
  return response;
};

let store: AppStore;
function renderPortal(path: string) {
  window.history.replaceState(null, '', path);
  const services: AppServices = { cookies: documentCookieJar(), localStore: browserLocalStorage(), goToSignIn: vi.fn() };
  store = createStore(services);
  const router = createPortalRouter(store, services);
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return router;
}

beforeEach(() => {
  gatewayHttp.defaults.adapter = fixtureAdapter;
});
afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
});

describe('notification alerts on the page', () => {
  it('a success is a status with a close button named from content; closing it moves focus to the heading', async () => {
    renderPortal('/firstbank/en_us/account/login');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    act(() => {
      store.dispatch(notificationShown({ id: 'password-reset', kind: 'success', message: 'Your password has been reset.' }));
    });
    // The notice shows once the screen that draws notices has rendered: on a loaded machine the heading can come first.
    expect((await screen.findByText('Your password has been reset.')).closest('[role]')?.getAttribute('role')).toBe('status');
    const close = screen.getByRole('button', { name: 'Dismiss notice', description: 'Your password has been reset.' });
    fireEvent.click(close);
    expect(screen.queryByText('Your password has been reset.')).toBeNull();
    // The page's heading as it is now (content arriving late may have rendered it again).
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Sign in' }));
  });

  it('an error is an alert; with two notices, closing one moves focus to the other close button', async () => {
    renderPortal('/firstbank/en_us/account/login');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    act(() => {
      store.dispatch(notificationShown({ id: 'card-removed', kind: 'error', message: 'Remove failed. X-CID: c-1' }));
      store.dispatch(notificationShown({ id: 'otp-verified', kind: 'success', message: 'Verified.' }));
    });
    // As above: the notices draw once their screen has rendered, which may be after the heading.
    expect((await screen.findByRole('alert')).textContent).toContain('Remove failed. X-CID: c-1');
    expect(screen.getByText('Verified.').closest('[role]')?.getAttribute('role')).toBe('status');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notice', description: 'Remove failed. X-CID: c-1' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Dismiss notice', description: 'Verified.' }));
  });

  it('a page notice is gone on the next page; a next-page notice shows there and is gone after the one after', async () => {
    const router = renderPortal('/firstbank/en_us/account/login');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    act(() => {
      store.dispatch(notificationShown({ id: 'otp-verified', kind: 'success', message: 'Stays behind.' }));
      store.dispatch(notificationShown({ id: 'password-reset', kind: 'success', message: 'Comes along.', lifetime: 'next-page' }));
    });
    await act(() => router.navigate('/firstbank/en_us/account/recovery'));
    await screen.findByRole('heading', { level: 1, name: 'Forgot password' });
    await waitFor(() => expect(screen.queryByText('Stays behind.')).toBeNull());
    expect(await screen.findByText('Comes along.')).toBeTruthy();
    await act(() => router.navigate('/firstbank/en_us/account/login'));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    await waitFor(() => expect(screen.queryByText('Comes along.')).toBeNull());
  });
});
