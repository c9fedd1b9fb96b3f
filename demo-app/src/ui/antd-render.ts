import { unstableSetRender } from 'antd-mobile';
import { createRoot, type Root } from 'react-dom/client';

/**
 * antd-mobile 5 renders its toasts, dialogs and action sheets with ReactDOM.render, which React 19 removed: give it
 * createRoot. Called once by the app at start, and by component tests that open those layers.
 */
export function installAntdRender(): void {
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
}
