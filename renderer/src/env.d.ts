/// <reference types="vite/client" />

import type { BridgeApi } from '../../shared/ipc';

declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}

declare global {
  interface Window {
    /** Set by the Electron preload; absent in browser mode. */
    takedesk?: BridgeApi;
  }
}
