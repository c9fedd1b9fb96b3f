import { unstableSetRender } from 'antd-mobile';
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { App } from './app/App';
import { createI18n } from './i18n';
import './ui/app.css';

// antd-mobile 5 renders its toasts and dialogs with ReactDOM.render, which React 19 removed; give it createRoot.
unstableSetRender((node, container) => {
  const host = container as Element & { _root?: Root };
  host._root ??= createRoot(container);
  host._root.render(node);
  return async () => {
    await Promise.resolve();
    host._root?.unmount();
    delete host._root;
  };
});

const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <StrictMode>
      <App i18n={createI18n()} />
    </StrictMode>,
  );
}
