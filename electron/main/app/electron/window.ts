import type { BrowserWindow, BrowserWindowConstructorOptions, Rectangle } from 'electron';
import { APP_ORIGIN, type ElectronModule } from './types';

export interface WindowStateStore {
  get(): Rectangle | undefined;
  set(bounds: Rectangle): void;
}

/**
 * The one window factory (Electron security checklist §2-§4, §6, §8): isolated, sandboxed renderer with no Node,
 * web security on, no webviews. Bounds are remembered between launches.
 */
export function createMainWindow(
  electron: Pick<ElectronModule, 'BrowserWindow' | 'screen'>,
  options: { preloadPath: string; state: WindowStateStore; url?: string },
): BrowserWindow {
  const saved = options.state.get();
  const bounds = saved && isVisible(electron, saved) ? saved : { width: 1280, height: 820 };
  const windowOptions: BrowserWindowConstructorOptions = {
    ...bounds,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Takedesk',
    backgroundColor: '#15171c',
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    },
  };
  const win = new electron.BrowserWindow(windowOptions);
  win.once('ready-to-show', () => win.show());
  const remember = () => {
    if (!win.isDestroyed() && !win.isMinimized() && !win.isFullScreen()) options.state.set(win.getBounds());
  };
  win.on('resize', remember);
  win.on('move', remember);
  win.on('close', remember);
  void win.loadURL(options.url ?? `${APP_ORIGIN}/index.html`);
  return win;
}

function isVisible(electron: Pick<ElectronModule, 'screen'>, bounds: Rectangle): boolean {
  try {
    return electron.screen.getAllDisplays().some(({ workArea: a }) => {
      return (
        bounds.x < a.x + a.width &&
        bounds.x + bounds.width > a.x &&
        bounds.y < a.y + a.height &&
        bounds.y + bounds.height > a.y
      );
    });
  } catch {
    return false;
  }
}
