import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { startBrowserHost, type BrowserHost } from './hosts/browser-host';
import { createMediaSigner } from './hosts/media-capability';
import { createJsonSettingsStore, type SandboxConnection } from '../profiles';
import { createFileSecretStore } from '../secrets';
import { createServices, type Services } from './services';
import { createStateNotices } from '../kernel/state-recovery';

export interface BrowserModeOptions {
  rendererDir: string;
  /** Defaults to the same folder Electron would use for Takedesk's data on this OS (or TAKEDESK_DATA_DIR). */
  dataDir?: string;
  port?: number;
  /** The launch secret; random when not given (a test restarts the app behind the same URL with it). */
  secret?: string;
  externalSandbox?: SandboxConnection;
  sandboxDelivery?: 'manual' | number;
  /** Serve the embedded sandbox over HTTPS. */
  sandboxHttps?: boolean;
  libraryDir?: string;
  /** Open folders in the OS file manager on "reveal" (off in tests). */
  revealInOs?: boolean;
  /** Routine progress lines (the sandbox started, at this address); printed with the failures when not given. */
  info?: (message: string) => void;
}

export interface BrowserMode {
  url: string;
  origin: string;
  services: Services;
  host: BrowserHost;
  close(): Promise<void>;
}

/** Mirrors Electron's `app.getPath('userData')` for productName "Takedesk". */
export function defaultDataDir(): string {
  if (process.env.TAKEDESK_DATA_DIR) return process.env.TAKEDESK_DATA_DIR;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Takedesk');
  if (process.platform === 'win32')
    return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Takedesk');
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Takedesk');
}

function revealInFileManager(path: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', ['-R', path]]
      : process.platform === 'win32'
        ? ['explorer', [`/select,${path}`]]
        : ['xdg-open', [dirname(path)]];
  spawn(command, args, { stdio: 'ignore', detached: true })
    .on('error', () => undefined)
    .unref();
}

/**
 * Browser mode: the same services as the Electron app, behind the local HTTP bridge. Secrets go to a 0600 file
 * (the UI says so), settings to a JSON file, both in the data folder.
 */
export async function startBrowserMode(options: BrowserModeOptions): Promise<BrowserMode> {
  const dataDir = options.dataDir ?? defaultDataDir();
  // One key per launch: the services sign each media URL they hand out, the host checks it.
  const mediaSigner = createMediaSigner();
  // The stores read their files first: what they recover is reported with the services' own state files.
  const notices = createStateNotices();
  const services = await createServices({
    mode: 'browser',
    dataDir,
    notices,
    settingsStore: createJsonSettingsStore({ path: join(dataDir, 'browser-mode-settings.json'), notices }),
    secrets: createFileSecretStore({ path: join(dataDir, 'browser-mode-secrets.json'), notices }),
    mediaScheme: {
      library: (id) => mediaSigner.sign(`/media/library/${encodeURIComponent(id)}`),
      remote: (token) => mediaSigner.sign(`/media/remote/${encodeURIComponent(token)}`),
    },
    desktop: {
      reveal: (path) => {
        if (options.revealInOs ?? true) revealInFileManager(path);
      },
      startDrag: () => false,
    },
    version: process.env.npm_package_version ?? '0.1.0',
    externalSandbox: options.externalSandbox,
    sandboxDelivery: options.sandboxDelivery,
    sandboxHttps: options.sandboxHttps,
    libraryDir: options.libraryDir,
    ...(options.info ? { info: options.info } : {}),
  });
  const host = await startBrowserHost({
    router: services.router,
    events: services.events,
    media: services.media,
    mediaSigner,
    rendererDir: options.rendererDir,
    port: options.port,
    ...(options.secret ? { secret: options.secret } : {}),
  });
  return {
    url: host.url,
    origin: host.origin,
    services,
    host,
    async close() {
      await host.close();
      await services.dispose();
    },
  };
}
