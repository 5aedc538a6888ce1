import { useMemo } from 'react';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { documentCookieJar } from '../../app/browser-cookies';
import { browserLocalStorage } from '../../app/browser-storage';
import { FEATURE_FLAGS } from '../../app/feature-flags';
import { leaveDocumentFor } from '../../app/leave-document';
import { takeReturnUrl } from '../../app/return-url';
import type { SessionDeps } from '../../auth/session-steps';
import { resolveSite } from '../../site/resolve-site';
import type { AppDispatch } from '../../store';

/** The browser's cookies, local storage, flags and clock for the session steps. */
export function useBrowserSession(): SessionDeps {
  const dispatch = useDispatch<AppDispatch>();
  return useMemo(
    () => ({ dispatch, cookies: documentCookieJar(), localStore: browserLocalStorage(), flags: FEATURE_FLAGS, now: () => Date.now() }),
    [dispatch],
  );
}

/**
 * After signing in or a passcode re-check: to the stored valid returnurl (§2), else /profile. An
 * account path stays in the app; any other page of the site is loaded.
 */
export function useGoOnAfterSignIn(): (basePath: string) => void {
  const navigate = useNavigate();
  return (basePath) => {
    const returnUrl = takeReturnUrl();
    if (returnUrl === null) {
      void navigate(`${basePath}profile`, { replace: true });
      return;
    }
    const target = new URL(returnUrl, window.location.origin);
    const path = `${target.pathname}${target.search}${target.hash}`;
    if (
      target.origin === window.location.origin &&
      resolveSite({ host: window.location.host, pathname: target.pathname, search: target.search }).route !== null
    ) {
      void navigate(path, { replace: true });
    } else {
      leaveDocumentFor(target.href);
    }
  };
}
