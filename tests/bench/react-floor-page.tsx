import { createRoot } from 'react-dom/client';

/**
 * The size figures' reference: React and ReactDOM drawing one paragraph, built by the same Vite config.
 * Every route pays at least this much, so what a route adds on top of it is the app's own.
 */
const container = document.getElementById('root');
if (container) createRoot(container).render(<p>ready</p>);
