import type { ListenerMiddlewareInstance, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { GatewayError } from '../api/gateway-api';
import { userAttributeApi } from '../api/user-attribute-api';
import { userAuthApi } from '../api/user-auth-api';
import type { AppServices } from '../app/app-services';
import { STORAGE } from '../app/storage-names';
import { transition, type AuthEffect, type AuthEvent, type AuthState } from './auth-machine';
import { authEvent } from './auth-slice';

type AnyDispatch = ThunkDispatch<unknown, unknown, UnknownAction>;

function errorCode(error: unknown): string {
  return (error as Partial<GatewayError> | undefined)?.code ?? 'HTTP_ERROR';
}

/** Performs one effect of the auth machine and answers the event its outcome is, if any. */
export async function performAuthEffect(effect: AuthEffect, dispatch: AnyDispatch, services: AppServices): Promise<AuthEvent | null> {
  switch (effect.type) {
    case 'CALL_BACKGROUND_CHECK': {
      // Subscribed until its answer is read: RTK Query holds a tag invalidation back while requests are out
      // (the site-locale save's, §4) and runs it when the last one lands, which drops an entry nobody is
      // subscribed to; read after that, a check the gateway answered would look failed.
      const request = dispatch(userAttributeApi.endpoints.getBackgroundCheck.initiate(effect.siteId, { forceRefetch: true }));
      try {
        const result = await request;
        return result.data
          ? { type: 'BACKGROUND_CHECK_ANSWERED', siteId: effect.siteId, passesBackgroundCheck: result.data.passesBackgroundCheck }
          : { type: 'BACKGROUND_CHECK_FAILED', siteId: effect.siteId, code: errorCode(result.error) };
      } finally {
        request.unsubscribe();
      }
    }
    case 'SAVE_SITE_LOCALE': {
      const result = await dispatch(
        userAttributeApi.endpoints.saveUserSiteAttributes.initiate({ siteId: effect.siteId, attributes: { locale: effect.locale } }),
      );
      return { type: 'error' in result ? 'SITE_LOCALE_SAVE_FAILED' : 'SITE_LOCALE_SAVED', siteId: effect.siteId };
    }
    case 'REFRESH_TOKEN': {
      const refreshToken = services.localStore.get(STORAGE.refreshToken);
      if (refreshToken === null) return { type: 'REFRESH_FAILED', siteId: effect.siteId };
      const result = await dispatch(userAuthApi.endpoints.refreshToken.initiate({ siteId: effect.siteId, refreshToken }));
      if ('error' in result) return { type: 'REFRESH_FAILED', siteId: effect.siteId };
      services.localStore.set(STORAGE.accessToken, result.data.access_token);
      if (result.data.refresh_token) services.localStore.set(STORAGE.refreshToken, result.data.refresh_token);
      return { type: 'REFRESH_SUCCEEDED', siteId: effect.siteId };
    }
    case 'REMOVE_REFRESH_TOKEN':
      services.localStore.remove(STORAGE.refreshToken);
      return null;
    case 'STORE_USER_TYPE':
      // §4: the user type cookie expires at the token's exp (seconds).
      services.cookies.set(STORAGE.userTypeCookie, effect.userType, new Date(effect.expiresAt * 1000));
      return null;
    case 'CLEAR_SESSION_COOKIES':
      for (const name of [STORAGE.authenticatedCookie, STORAGE.sessionCookie, ...(effect.concierge ? [STORAGE.supportDetailsCookie] : [])]) {
        services.cookies.remove(name);
      }
      return null;
    case 'GO_TO_SIGN_IN':
      services.goToSignIn(effect.reload);
      return null;
  }
}

/**
 * The machine's effect runner: after each auth event it runs the effects of that transition, in
 * order, and dispatches the events they produce (which may bring more effects).
 */
export function startAuthEffectRunner(listeners: ListenerMiddlewareInstance, services: AppServices): void {
  listeners.startListening({
    actionCreator: authEvent,
    effect: async (action, api) => {
      const before = (api.getOriginalState() as { auth: AuthState }).auth;
      for (const effect of transition(before, action.payload).effects) {
        const next = await performAuthEffect(effect, api.dispatch, services);
        if (next) api.dispatch(authEvent(next));
      }
    },
  });
}
