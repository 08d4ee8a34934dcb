/**
 * Takedesk's main process, read as a manifest: Electron glue at the edge, plain-Node services behind it.
 */
import * as electron from 'electron';
import Store from 'electron-store';
import electronUpdater from 'electron-updater';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startElectronApp } from './electron/app';
import { createDragOut } from './electron/drag';
import { utilitySandboxSpawner } from './electron/sandbox-utility-process';
import { MEDIA_SCHEME } from './electron/types';
import { openSafeStorageSecretStore } from './secrets';
import { createServices } from './services';

const here = fileURLToPath(new URL('.', import.meta.url));

void startElectronApp(electron, {
  preloadPath: join(here, '../preload/index.cjs'),
  rendererDir: join(here, '../renderer'),
  autoUpdater: electronUpdater.autoUpdater,
  ...(process.env.TAKEDESK_DATA_DIR ? { userDataDir: process.env.TAKEDESK_DATA_DIR } : {}),
  async createServices(userDataDir, desktop) {
    const settingsStore = new Store<Record<string, unknown>>({ name: 'settings' });
    const secretsStore = new Store<Record<string, unknown>>({ name: 'secrets' });
    const services = await createServices({
      mode: 'electron',
      dataDir: userDataDir,
      settingsStore,
      secrets: await openSafeStorageSecretStore({ safeStorage: electron.safeStorage, store: secretsStore }),
      mediaScheme: {
        library: (id) => `${MEDIA_SCHEME}://library/${encodeURIComponent(id)}`,
        remote: (token) => `${MEDIA_SCHEME}://remote/${encodeURIComponent(token)}`,
      },
      desktop: {
        reveal: (path) => electron.shell.showItemInFolder(path),
        startDrag: createDragOut(electron, (message, error) => desktop.log.error(message, error)),
      },
      // The embedded sandbox runs in a utility process of its own (out/main/sandbox.js, built from its CLI).
      sandboxSpawn: utilitySandboxSpawner(electron, join(here, 'sandbox.js'), (message) =>
        desktop.log.warn(message),
      ),
      updates: desktop.updates,
      log: (message, error) => desktop.log.error(message, error),
      version: electron.app.getVersion(),
      versions: { electron: process.versions.electron ?? '', chrome: process.versions.chrome ?? '' },
    });
    const windowState = {
      get: () => settingsStore.get('windowBounds') as electron.Rectangle | undefined,
      set: (bounds: electron.Rectangle) => settingsStore.set('windowBounds', bounds),
    };
    return { ...services, windowState };
  },
});
