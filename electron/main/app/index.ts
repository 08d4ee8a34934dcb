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
import { createMemorySettingsStore, type SettingsStore } from '../profiles';
import { openSafeStorageSecretStore, type KeyValueStore } from '../secrets';
import { createServices } from './services';
import {
  ElectronSecretsFileSchema,
  openRecoveredStore,
  removeStateTempFiles,
  SettingsFileSchema,
} from './state-files';
import { createStateNotices } from '../kernel/state-recovery';

const here = fileURLToPath(new URL('.', import.meta.url));

void startElectronApp(electron, {
  preloadPath: join(here, '../preload/index.cjs'),
  rendererDir: join(here, '../renderer'),
  autoUpdater: electronUpdater.autoUpdater,
  ...(process.env.TAKEDESK_DATA_DIR ? { userDataDir: process.env.TAKEDESK_DATA_DIR } : {}),
  async createServices(userDataDir, desktop) {
    const notices = createStateNotices();
    await removeStateTempFiles(userDataDir);
    // electron-store throws on a file it cannot parse, and with `clearInvalidConfig` would empty it with no copy:
    // left off on purpose, and each file is recovered under the state-file rule before it is opened.
    const open = (name: string) => () =>
      new Store<Record<string, unknown>>({ name, clearInvalidConfig: false });
    const settingsStore = openRecoveredStore<SettingsStore>({
      path: join(userDataDir, 'settings.json'),
      schema: SettingsFileSchema,
      label: 'The settings file',
      notices,
      open: open('settings'),
      fallback: () => createMemorySettingsStore(),
    });
    const secretsStore = openRecoveredStore<KeyValueStore>({
      path: join(userDataDir, 'secrets.json'),
      schema: ElectronSecretsFileSchema,
      label: 'The saved sign-ins file',
      notices,
      open: open('secrets'),
      fallback: () => createMemoryKeyValueStore(),
    });
    const services = await createServices({
      mode: 'electron',
      dataDir: userDataDir,
      notices,
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

/** A key-value store in memory: the secrets' stand-in when their file cannot be opened (tokens are not kept). */
function createMemoryKeyValueStore(): KeyValueStore {
  const data = new Map<string, unknown>();
  return {
    get: (key) => structuredClone(data.get(key)),
    set: (key, value) => void data.set(key, structuredClone(value)),
    delete: (key) => void data.delete(key),
  };
}
