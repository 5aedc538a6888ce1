import { combineReducers, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { gatewayApi, installCaptchaProvider, type GatewayThunkExtra } from './api/gateway-api';
import { gatewayResponded } from './api/gateway-events';
import { alertsSlice, globalErrorHidden, globalErrorShown } from './app/alerts-slice';
import type { AppServices } from './app/app-services';
import { rememberSessionEnd, sessionEndOf } from './auth/session-end-notice';
import { reactionTo } from './app/error-catalogue';
import { cacheFromPage, serverCacheReceived, type ServerStoreState } from './app/server-page-state';
import { offlineDevelopmentCaptcha } from './app/offline-development-captcha';
import { recoverySlice } from './app/recovery-slice';
import { registrationSlice } from './app/registration-slice';
import { startAuthEffectRunner } from './auth/auth-effects';
import { authEvent, authReducer } from './auth/auth-slice';
import { passwordChangeSlice } from './auth/password-change-slice';
import { signInSlice } from './auth/sign-in-slice';

const rootReducer = combineReducers({
  [gatewayApi.reducerPath]: gatewayApi.reducer,
  auth: authReducer,
  alerts: alertsSlice.reducer,
  registration: registrationSlice.reducer,
  recovery: recoverySlice.reducer,
  signIn: signInSlice.reducer,
  passwordChange: passwordChangeSlice.reducer,
});
export type RootState = ReturnType<typeof rootReducer>;

/** SPEC §8: every gateway answer goes through the error catalogue once, here. */
function startErrorCatalogue(listeners: ReturnType<typeof createListenerMiddleware>, currentPagePath: () => string): void {
  listeners.startListening({
    actionCreator: gatewayResponded,
    effect: (action, api) => {
      // Kept before the trip to sign-in (often a reload), whose page says why the session ended.
      const sessionEnd = sessionEndOf({ sessionEnded: action.payload.sessionEnded });
      if (sessionEnd !== null && typeof window !== 'undefined') rememberSessionEnd(sessionEnd);
      const reaction = reactionTo(action.payload, currentPagePath());
      if (reaction.kind === 'show-global-alert') api.dispatch(globalErrorShown({ reference: reaction.reference }));
      else if (reaction.kind === 'hide-global-alert' && (api.getState() as RootState).alerts.globalError !== null) api.dispatch(globalErrorHidden());
      else if (reaction.kind === 'authentication-failure') api.dispatch(authEvent({ type: 'AUTHENTICATION_FAILED', code: reaction.code }));
    },
  });
}

/**
 * The app's store. `serverState` is what the server renderer's store held for this page (ADR 0024):
 * the slices start from it and the gateway API's cache is filled from it before anything renders.
 */
export function createStore(services: AppServices, currentPagePath: () => string = () => window.location.pathname, serverState?: ServerStoreState) {
  installCaptchaProvider(services.captcha ?? offlineDevelopmentCaptcha);
  const listeners = createListenerMiddleware();
  startErrorCatalogue(listeners, currentPagePath);
  startAuthEffectRunner(listeners, services);
  const store = configureStore({
    reducer: rootReducer,
    ...(serverState ? { preloadedState: serverState.slices } : {}),
    middleware: (getDefault) =>
      getDefault({
        thunk: { extraArgument: { gatewayClient: services.gatewayClient } satisfies GatewayThunkExtra },
        // The development-only checks skip the gateway API's cache: it holds parsed JSON (serialisable by
        // construction) that only RTK Query's own reducers write, and Immer freezes it in development, so a
        // mutation throws anyway. Walking it on every action took 40-180 ms once a server page carries a
        // site's configuration and texts (ADR 0024). The checks still run on every other slice; their
        // "took longer than" console warning is off, since on a busy machine it reports the load (500 ms for
        // the small slices left), and the browser tests fail on any console warning.
        immutableCheck: { ignoredPaths: [gatewayApi.reducerPath], warnAfter: Number.POSITIVE_INFINITY },
        serializableCheck: {
          ignoredPaths: [gatewayApi.reducerPath],
          ignoredActions: [serverCacheReceived.type],
          warnAfter: Number.POSITIVE_INFINITY,
        },
      })
        .prepend(listeners.middleware)
        .concat(gatewayApi.middleware),
  });
  if (serverState) store.dispatch(serverCacheReceived(cacheFromPage(serverState.gatewayApi, Date.now())));
  return store;
}

export type AppStore = ReturnType<typeof createStore>;
export type AppDispatch = AppStore['dispatch'];
