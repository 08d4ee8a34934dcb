import type { WebContents } from 'electron';
import { isAppUrl, isSafeExternalUrl } from '../security/url-policy';
import { APP_ORIGIN, type ElectronModule } from './types';

/**
 * App-wide guards on every web contents ever created (Electron security checklist §5, §11-§14): navigation away
 * from the app is prevented, window.open is denied (checked http/https links go to the OS browser), webviews are
 * refused, and every permission request is denied.
 */
export function installSecurityGuards(
  electron: Pick<ElectronModule, 'app' | 'session' | 'shell'>,
  log: (message: string) => void = () => undefined,
): void {
  const openOutside = (url: string) => {
    if (isSafeExternalUrl(url)) void electron.shell.openExternal(url);
    else log(`blocked external URL ${url.slice(0, 200)}`);
  };

  electron.app.on('web-contents-created', (_event: unknown, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url, APP_ORIGIN)) {
        event.preventDefault();
        openOutside(url);
      }
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url, APP_ORIGIN)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      openOutside(url);
      return { action: 'deny' };
    });
  });

  const ses = electron.session.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
}
