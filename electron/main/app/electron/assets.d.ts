/** Vite's `?inline` import (electron-vite and vitest): the file as a data URL. */
declare module '*.png?inline' {
  const dataUrl: string;
  export default dataUrl;
}
