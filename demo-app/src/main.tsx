import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createI18n } from './i18n';
import { installAntdRender } from './ui/antd-render';
import './ui/app.css';

installAntdRender();

const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <StrictMode>
      <App i18n={createI18n()} />
    </StrictMode>,
  );
}
