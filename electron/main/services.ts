import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { AppInfo, SecretsBackendInfo } from '../../shared/ipc';
import { createAnalyzer } from './audio/analyzer';
import { createEventBus, type EventBus } from './events';
import { createHandlers, type DesktopPort, type UpdatesPort } from './handlers';
import type { MediaResolver } from './hosts/browser-host';
import { createRouter, type Router } from './ipc/router';
import { createDownloadsService } from './downloads/downloads-service';
import { createLibraryService } from './library/library-service';
import { createMediaRegistry, type MediaUrlScheme } from './media/media-registry';
import { trustedFetch } from './media/trusted-fetch';
import { createProfiles, type SandboxConnection, type SettingsStore } from './profiles';
import { createQaTargets } from './qa-targets';
import { createSandboxLauncher, type SandboxSupervisor, type SpawnSandbox } from './sandbox-launcher';
import { nodeSandboxSpawner } from './sandbox-child-process';
import type { SecretStore } from './secrets';
import { createSettings, type SettingsService } from './settings';
import { createReviewIndex } from './review-index';
import { createWatcher, createWatcherMemoryFile } from './watcher';

export interface ServicesOptions {
  mode: 'electron' | 'browser';
  /** App data folder: settings, sandbox state, download queue. */
  dataDir: string;
  settingsStore: SettingsStore;
  secrets: SecretStore;
  /** How the current transport spells media URLs. */
  mediaScheme: MediaUrlScheme;
  desktop: DesktopPort;
  /** The Electron edge's updater; without it (browser mode) updates are `disabled`. */
  updates?: UpdatesPort;
  version: string;
  versions?: Record<string, string>;
  /** An already running sandbox to use for the Sandbox profile (tests); otherwise one is embedded. */
  externalSandbox?: SandboxConnection;
  /** Starts the embedded sandbox's process: Electron's utilityProcess; by default a Node child process. */
  sandboxSpawn?: SpawnSandbox;
  sandboxDelivery?: 'manual' | number;
  /** Serve the embedded sandbox over HTTPS. */
  sandboxHttps?: boolean;
  /** Overrides the default library folder (tests). */
  libraryDir?: string;
  log?: (message: string, error?: unknown) => void;
}

export interface Services {
  router: Router;
  events: EventBus;
  media: MediaResolver;
  settings: SettingsService;
  /** The embedded sandbox's process (status, pid) for the edge and tests; calls go through the router. */
  sandbox: Pick<SandboxSupervisor, 'status' | 'pid'>;
  dispose(): Promise<void>;
}

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
    spawn: options.sandboxSpawn ?? nodeSandboxSpawner(),
    log,
    https: options.sandboxHttps,
  });
  const profiles = createProfiles({
    settingsStore: options.settingsStore,
    secrets: options.secrets,
    sandbox,
    events,
  });
  const review = createReviewIndex(events);
  const watcher = createWatcher({
    profiles,
    events,
    onProjects: (profileId, rows) => review.projects(profileId, rows),
    onDeliverables: (profileId, projectId, list) => review.deliverables(profileId, projectId, list),
    memory: createWatcherMemoryFile(join(options.dataDir, 'watcher.json')),
  });
  // Two workers where there are two cores: analyses of two files run at once, and a long MP3's peaks decode in halves.
  const analyzer = createAnalyzer({ poolSize: Math.min(2, availableParallelism()) });

  const library = createLibraryService({ settings, events, analyzer });
  const downloads = createDownloadsService({
    dataDir: options.dataDir,
    library: library.library,
    libraryChecked: library.checked,
    settings,
    profiles,
    events,
    analyze: library.analyze,
  });
  const media = createMediaRegistry({
    scheme: options.mediaScheme,
    library: library.port,
    // Streams a service media link with the active profile's trust (the sandbox's certificate, or the system's).
    fetchImpl: trustedFetch(async () => (await profiles.active()).ca),
  });

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
    profiles,
    media,
    downloads: downloads.port,
    library: library.port,
    settings,
    watcher: {
      status: () => watcher.status(),
      poke: (target) => void watcher.poke(target),
      observe: (profileId, projects) => void watcher.observe(profileId, projects).catch(() => undefined),
      attend: (attention) => watcher.attend(attention),
    },
    desktop: options.desktop,
    updates: options.updates ?? {
      status: () => ({ state: 'disabled', reason: 'browser' }),
      check: async () => undefined,
      install: () => false,
    },
    qaTargets: createQaTargets({
      store: options.settingsStore,
      activeProfileId: async () => (await profiles.state()).activeId,
    }),
    review,
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
    sandbox: { status: () => sandbox.status(), pid: () => sandbox.pid() },
    async dispose() {
      watcher.stop();
      await downloads.dispose();
      await analyzer.close();
      await sandbox.close();
    },
  };
}
