import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { App } from './App';
import { createStore } from './store';
import './styles/app.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render the portal into.');

createRoot(container).render(
  <StrictMode>
    <Provider store={createStore()}>
      <App />
    </Provider>
  </StrictMode>,
);
