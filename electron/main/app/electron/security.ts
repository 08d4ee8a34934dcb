import type { WebContents } from 'electron';
import { isAppUrl, isSafeExternalUrl } from '../../security/url-policy';
import { APP_ORIGIN, type ElectronModule } from './types';

/**
 * Guards on every web contents ever created (Electron security checklist §5, §11-§14): navigation away from the
 * app is prevented, window.open is denied (checked http/https links go to the OS browser), webviews are refused.
 * Installed before `ready`, so no web contents is ever created without them.
 */
export function installContentsGuards(
  electron: Pick<ElectronModule, 'app' | 'shell'>,
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
}

/** The one permission the app's own page may have: writing sanitised text to the clipboard ("Copy path"). */
const ALLOWED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

/** True when the app's own origin asks for a permission it is allowed. */
export function permissionAllowed(permission: string, requestingUrl: string | undefined): boolean {
  return (
    ALLOWED_PERMISSIONS.has(permission) &&
    typeof requestingUrl === 'string' &&
    isAppUrl(requestingUrl, APP_ORIGIN)
  );
}

/**
 * Permission handlers of the default session (checklist §5): everything is denied but the clipboard write of the
 * app's own origin. The session exists only once the app is ready: call this after `app.whenReady()`.
 */
export function installPermissionHandlers(electron: Pick<ElectronModule, 'session'>): void {
  const ses = electron.session.defaultSession;
  ses.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(permissionAllowed(permission, details?.requestingUrl)),
  );
  // The check handler is given an origin (`app://takedesk`), the request handler a URL: both parse as app URLs.
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    permissionAllowed(permission, requestingOrigin),
  );
}
