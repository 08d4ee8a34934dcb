import type { IpcMainInvokeEvent, WebFrameMain } from 'electron';
import { IPC_INVOKE } from '../../../../shared/ipc/channels';
import type { Router } from '../ipc/router';
import { isAppUrl } from '../../security/url-policy';
import { APP_ORIGIN, type ElectronModule } from './types';

/**
 * Only the main frame of our own window, at our own origin, may call main (Electron security checklist §17):
 * an iframe, a navigated-away page or another origin gets FORBIDDEN before any handler runs.
 */
export function isTrustedSender(frame: Pick<WebFrameMain, 'url' | 'parent'> | null | undefined): boolean {
  if (!frame) return false;
  if (frame.parent !== null) return false;
  return isAppUrl(frame.url, APP_ORIGIN);
}

export function attachIpc(electron: Pick<ElectronModule, 'ipcMain'>, router: Router): () => void {
  electron.ipcMain.handle(IPC_INVOKE, async (event: IpcMainInvokeEvent, channel: unknown, input: unknown) => {
    if (!isTrustedSender(event.senderFrame)) {
      return {
        ok: false,
        error: { type: 'FORBIDDEN_SENDER', status: 0, message: 'This frame may not call Takedesk.' },
      };
    }
    return router.invoke(channel, input, { transport: 'electron', sender: event.sender });
  });
  return () => electron.ipcMain.removeHandler(IPC_INVOKE);
}
