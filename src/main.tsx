import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { createPortalRouter } from './App';
import type { AppServices } from './app/app-services';
import { documentCookieJar } from './app/browser-cookies';
import { configuredCaptchaProvider } from './captcha/configured-captcha';
import { browserLocalStorage } from './app/browser-storage';
import { FEATURE_FLAGS } from './app/feature-flags';
import { isLeavingDocument } from './app/leave-document';
import { signInRoute } from './routes/route-guards';
import { resolveSite } from './site/resolve-site';
import { createStore } from './store';
import './styles/app.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render the portal into.');

const services: AppServices = {
  cookies: documentCookieJar(),
  localStore: browserLocalStorage(),
  captcha: configuredCaptchaProvider(import.meta.env.VITE_HCAPTCHA_SITE_KEY, () => document.documentElement.lang),
  // §4: to the sign-in route of the current site, keeping the query; a full reload unless told otherwise.
  // Not once the page is leaving for another document (app/leave-document.ts).
  goToSignIn: (reload) => {
    if (isLeavingDocument()) return;
    const { basePath } = resolveSite({ host: window.location.host, pathname: window.location.pathname, search: window.location.search });
    const target = `${basePath}${signInRoute(FEATURE_FLAGS)}${window.location.search}`;
    if (reload) window.location.assign(target);
    else void router.navigate(target);
  },
};
const store = createStore(services);
const router = createPortalRouter(store, services);

createRoot(container).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);
