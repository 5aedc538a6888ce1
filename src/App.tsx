import { createBrowserRouter, Navigate, RouterProvider } from 'react-router-dom';
import { AccountShell } from './app/AccountShell';
import { DEFAULT_LOCALE } from './site/resolve-site';

// SPEC §2 base paths: /{issuer}/{locale}/account/ and /{locale}/account/.
const router = createBrowserRouter([
  { path: '/:issuer/:locale/account/*', element: <AccountShell /> },
  { path: '/:locale/account/*', element: <AccountShell /> },
  { path: '*', element: <Navigate to={`/${DEFAULT_LOCALE}/account/login-form`} replace /> },
]);

export function App() {
  return <RouterProvider router={router} />;
}
