import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppInfo, PeaksPayload, SecretsBackendInfo } from '../../shared/ipc';
import { decodePeaks, qaVerdict, toWavesurferPeaks } from '../../shared/audio';
import { createAnalyzer } from './audio/analyzer';
import { createEventBus, type EventBus } from './events';
import { createHandlers, type DesktopPort, type DownloadsPort, type LibraryPort } from './handlers';
import type { MediaResolver } from './hosts/browser-host';
import { createRouter, type Router } from './ipc/router';
import { createMediaRegistry, type MediaUrlScheme } from './media/media-registry';
import { createProfiles, type SettingsStore } from './profiles';
import { createSandboxLauncher } from './sandbox-launcher';
import type { SecretStore } from './secrets';
import { createSettings, type SettingsService } from './settings';
import { createWatcher } from './watcher';

export interface ServicesOptions {
  mode: 'electron' | 'browser';
  /** App data folder: settings, sandbox state, download queue. */
  dataDir: string;
  settingsStore: SettingsStore;
  secrets: SecretStore;
  /** How the current transport spells media URLs. */
  mediaScheme: MediaUrlScheme;
  desktop: DesktopPort;
  version: string;
  versions?: Record<string, string>;
  /** An already running sandbox to use for the Sandbox profile (tests); otherwise one is embedded. */
  externalSandbox?: { url: string; token: string };
  sandboxDelivery?: 'manual' | number;
  /** Overrides the default library folder (tests). */
  libraryDir?: string;
  log?: (message: string, error?: unknown) => void;
}

export interface Services {
  router: Router;
  events: EventBus;
  media: MediaResolver;
  settings: SettingsService;
  dispose(): Promise<void>;
}

const PEAK_BUCKETS = 6000;

/** The composition root: every main-process service, built once, wired to the router. */
export async function createServices(options: ServicesOptions): Promise<Services> {
  const log = options.log ?? ((message, error) => console.error(`[takedesk] ${message}`, error ?? ''));
  const events = createEventBus();
  const settings = createSettings({
    store: options.settingsStore,
    defaults: options.libraryDir ? { libraryDir: options.libraryDir } : {},
  });
  const sandbox = createSandboxLauncher({
    dataDir: options.dataDir,
    external: options.externalSandbox,
    delivery: options.sandboxDelivery,
  });
  const profiles = createProfiles({
    settingsStore: options.settingsStore,
    secrets: options.secrets,
    sandbox,
    events,
  });
  const watcher = createWatcher({ profiles, events });
  const analyzer = createAnalyzer({ poolSize: 1 });

  const libraryAndDownloads = await createLibraryServices({ options, settings, profiles, events, analyzer });
  const media = createMediaRegistry({ scheme: options.mediaScheme, library: libraryAndDownloads.library });

  const secretsInfo = (): SecretsBackendInfo => options.secrets.backend();
  const appInfo = async (): Promise<AppInfo> => ({
    name: 'Takedesk',
    version: options.version,
    mode: options.mode,
    platform: process.platform,
    versions: { node: process.versions.node, ...options.versions },
    secrets: secretsInfo(),
  });

  const handlers = createHandlers({
    appInfo,
    profiles: { ...profiles, client: async () => (await profiles.active()).client },
    media,
    downloads: libraryAndDownloads.downloads,
    library: libraryAndDownloads.library,
    settings,
    watcher: { status: () => watcher.status(), poke: () => void watcher.poke() },
    desktop: options.desktop,
  });
  const router = createRouter({
    handlers,
    onInternalError: (channel, error) => log(`handler ${channel} failed`, error),
  });
  watcher.start();

  return {
    router,
    events,
    media,
    settings,
    async dispose() {
      watcher.stop();
      await libraryAndDownloads.dispose();
      await analyzer.close();
      await sandbox.close();
    },
  };
}

/** Reads `<file>.peaks` and shapes it for wavesurfer.js; JSON-safe numbers for the HTTP transport. */
export async function readPeaks(path: string): Promise<PeaksPayload | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(`${path}.peaks`);
  } catch {
    return null;
  }
  const { peaks, duration } = toWavesurferPeaks(decodePeaks(bytes), PEAK_BUCKETS);
  return {
    duration,
    peaks: peaks.map((channel) => Array.from(channel, (v) => Math.round(v * 10_000) / 10_000)),
  };
}

export { qaVerdict, join };

// Replaced when the download manager and library land (issue 5): every call answers a clear error until then.
async function createLibraryServices(_deps: unknown): Promise<{
  library: LibraryPort;
  downloads: DownloadsPort;
  dispose(): Promise<void>;
}> {
  const unavailable = () => {
    throw Object.assign(new Error('Downloads are not available yet.'), { type: 'NOT_AVAILABLE', status: 0 });
  };
  return {
    library: {
      list: async () => [],
      remove: async () => unavailable(),
      pathOf: async () => null,
      peaks: async () => null,
      analyze: async () => unavailable(),
      qa: async () => unavailable(),
    },
    downloads: {
      start: async () => unavailable(),
      startProject: async () => unavailable(),
      list: () => [],
      pause: () => unavailable(),
      resume: () => unavailable(),
      cancel: () => unavailable(),
    },
    dispose: async () => undefined,
  };
}
