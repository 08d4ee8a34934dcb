import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { AppInfo, ProfilesState, SecretsBackendInfo } from '../../../shared/ipc';
import { activeProfileId } from '../kernel/active-profile-id';
import { createAnalyzer, type Analyzer } from '../audio/analyzer';
import type { SmokeProbes } from './electron/smoke-test';
import { createEventBus, type EventBus } from '../kernel/events';
import { createHandlers, type DesktopPort, type HandlerDeps, type UpdatesPort } from './handlers';
import type { MediaResolver } from './hosts/browser-host';
import { createRouter, type Router } from './ipc/router';
import { startBackgroundFetch } from '../downloads';
import { createDownloadsService } from '../downloads';
import { finishedFilesIn } from '../downloads';
import { createLibraryService } from '../library';
import { createLivePeaks } from '../downloads';
import { createMediaRegistry, type MediaUrlScheme } from '../media/media-registry';
import { openDatabase } from '../review';
import { createDecisions } from '../review';
import { DATABASE_MIGRATIONS } from '../review';
import { createMirror, type Mirror } from '../review';
import { createNames } from '../review';
import { reachabilityFrom } from '../review';
import { attachReviewReactions, pokeTargetOf } from '../review';
import { createDatabaseValue } from '../review';
import { migrateOutboxFile } from '../review';
import { trustedFetch } from '../media/trusted-fetch';
import { createProfiles, type SandboxConnection, type SettingsStore } from '../profiles';
import { createQaTargets } from '../library';
import { createSandboxLauncher, type SandboxSupervisor, type SpawnSandbox } from '../profiles';
import { nodeSandboxSpawner } from '../profiles';
import type { SecretStore } from '../secrets';
import { createSettings, type SettingsService } from '../profiles';
import { createReviewIndex, SavedReviewIndexSchema } from '../review';
import { removeStateTempFiles } from './state-files';
import { createStateNotices, type StateNotices } from '../kernel/state-recovery';
import { createWatcher, WatcherMemorySchema } from '../watcher';

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
  /** Routine progress lines (the sandbox started, at this address); `log` when not given. */
  info?: (message: string) => void;
  /**
   * Where recovered state files are reported (the stores made before the services report into the same one);
   * the renderer takes them through `app.notices`.
   */
  notices?: StateNotices;
}

export interface Services {
  router: Router;
  events: EventBus;
  media: MediaResolver;
  settings: SettingsService;
  /** The embedded sandbox's process (status, pid) for the edge and tests; calls go through the router. */
  sandbox: Pick<SandboxSupervisor, 'status' | 'pid'>;
  /** What the packaged app's `--smoke-test` checks behind the edge. */
  smoke: SmokeProbes;
  dispose(): Promise<void>;
}

/** The composition root: every main-process service, built once, wired to the router. */
export async function createServices(options: ServicesOptions): Promise<Services> {
  const log =
    options.log ??
    // Only an error is printed after the line (no trailing blank where there is none).
    ((message, error) => console.error(`[takedesk] ${message}`, ...(error === undefined ? [] : [error])));
  const events = createEventBus();
  const notices = options.notices ?? createStateNotices();
  notices.onReport(() => events.emit('app.notices', { count: 1 }));
  // What killed atomic writes left beside any state file goes before this start's first write.
  await removeStateTempFiles(options.dataDir);
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
    ...(options.info ? { info: options.info } : {}),
    https: options.sandboxHttps,
  });
  const profiles = createProfiles({
    settingsStore: options.settingsStore,
    secrets: options.secrets,
    sandbox,
    events,
  });
  // The embedded database: the producer's decisions, committed before they are sent (review/decisions.ts), the
  // read mirror of what was loaded, per account (review/mirror.ts), and the review index (review/state-values.ts).
  const database = openDatabase(join(options.dataDir, 'takedesk.sqlite'), DATABASE_MIGRATIONS);
  const readMirror = createMirror(database.db);
  if (database.reset) {
    log(database.reset);
    notices.report({
      file: 'takedesk.sqlite',
      label: 'The local database',
      reset: ['(everything)'],
      copy: database.copy,
      message: database.reset,
    });
  }
  const review = createReviewIndex(events, {
    // A review-index.json of an earlier version moves in once (damaged: under the state-file rule, with a notice).
    file: createDatabaseValue(database.db, 'review-index', SavedReviewIndexSchema, {
      path: join(options.dataDir, 'review-index.json'),
      label: 'The review overview file',
      notices,
    }),
  });
  // What was known at the last quit answers the projects list and its landing at once.
  await review.load();
  // What the watcher has seen, in the database too (a watcher.json of an earlier version moves in once).
  const remembered = createDatabaseValue(database.db, 'watcher', WatcherMemorySchema, {
    path: join(options.dataDir, 'watcher.json'),
    label: "The watcher's memory file",
    notices,
  });
  const watcherMemory = {
    load: async () => (await remembered.load()) ?? {},
    save: (memory: Parameters<typeof remembered.save>[0]) => remembered.save(memory),
  };
  // The watcher's reads go into the read mirror too (offline, they answer).
  const mirrored = (profileId: string, keep: (mirror: Mirror, account: string) => void) => {
    void profiles
      .account(profileId)
      .then((account) => keep(readMirror, account))
      .catch((error: unknown) => log('the read mirror could not keep a watcher read', error));
  };
  // What was loaded for an account no profile signs in as any more goes (review/mirror.ts), when the profiles
  // change and at start. A profile whose account cannot be told keeps everything this time.
  let mirrorProfiles = '';
  const keepMirrorAccounts = async (state: ProfilesState) => {
    const ids = state.profiles.map((p) => p.id).join('\n');
    if (ids === mirrorProfiles) return;
    const accounts = await Promise.all(state.profiles.map((p) => profiles.account(p.id)));
    mirrorProfiles = ids;
    readMirror.keepAccounts(accounts);
  };
  const forgetRemovedAccounts = (state: ProfilesState) =>
    keepMirrorAccounts(state).catch((error: unknown) =>
      log('the read mirror could not forget a removed account', error),
    );
  await forgetRemovedAccounts(await profiles.state());
  const watcher = createWatcher({
    profiles,
    events,
    onProjects: (profileId, rows) => {
      review.projects(profileId, rows);
      mirrored(profileId, (into, account) => into.rows(account, rows));
    },
    onDeliverables: (profileId, projectId, list) => {
      review.deliverables(profileId, projectId, list);
      mirrored(profileId, (into, account) => into.deliverables(account, projectId, list));
    },
    memory: watcherMemory,
  });
  // Two workers where there are two cores: analyses of two files run at once, and a long MP3's peaks decode in halves.
  const analyzer = createAnalyzer({ poolSize: Math.min(2, availableParallelism()) });

  const activeId = () => activeProfileId(profiles);
  const library = createLibraryService({
    settings,
    events,
    analyzer,
    profiles,
    notices,
    knownFiles: () => finishedFilesIn(join(options.dataDir, 'downloads.json')),
    takeStatus: review.deliverableStatus,
  });
  const downloads = createDownloadsService({
    dataDir: options.dataDir,
    library: library.library,
    libraryChecked: library.checked,
    settings,
    profiles,
    events,
    analyze: library.analyze,
    notices,
  });
  const media = createMediaRegistry({
    scheme: options.mediaScheme,
    library: library.port,
    // Streams a service media link with the active profile's trust (the sandbox's certificate, or the system's).
    fetchImpl: trustedFetch(async () => (await profiles.active()).ca),
  });

  const names = createNames();
  // An outbox.json of an earlier version moves in once (damaged: under the state-file rule, with a notice).
  await migrateOutboxFile(
    database.db,
    join(options.dataDir, 'outbox.json'),
    (id) => profiles.account(id),
    notices,
  );
  const outbox = createDecisions({
    db: database.db,
    profiles,
    onChange: (items) => events.emit('outbox.changed', items),
    // The service has the decision: the watcher looks at that project again (its next slot, within budget).
    onSent: (decision) => void watcher.poke(pokeTargetOf(decision)),
    log,
    describe: async (decision) => names.describe(decision, await library.port.list()),
    versionsLoaded: (account, id) => {
      const read = readMirror.readVersions(account, id);
      return read ? Math.max(1, read.versions.length) : null;
    },
  });
  const livePeaks = createLivePeaks({
    jobs: async () => downloads.port.list(),
    envelope: (jobId, from) => downloads.envelope(jobId, from),
  });

  startBackgroundFetch({ events, settings, activeProfileId: activeId, downloads: downloads.port, log });
  attachReviewReactions({ events, outbox, review, onProfiles: (state) => void forgetRemovedAccounts(state) });

  const secretsInfo = (): SecretsBackendInfo => options.secrets.backend();
  const appInfo = async (): Promise<AppInfo> => ({
    name: 'Takedesk',
    version: options.version,
    mode: options.mode,
    platform: process.platform,
    versions: { node: process.versions.node, ...options.versions },
    secrets: secretsInfo(),
  });

  const handlers = reachabilityFrom(
    names,
    () => outbox.noticeReachable(),
    createHandlers({
      appInfo,
      stateNotices: () => notices.take(),
      profiles,
      media,
      downloads: downloads.port,
      library: library.port,
      settings,
      watcher: {
        status: () => watcher.status(),
        project: (projectId) => watcher.project(projectId),
        checkNow: (projectId) => watcher.checkNow(projectId),
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
        activeProfileId: activeId,
      }),
      review,
      onDeliverables: (projectId, list) => names.deliverables(projectId, list),
      outbox,
      livePeaks: (deliverableId, version) => livePeaks.peaks(deliverableId, version),
      mirror: { store: readMirror, account: (profileId) => profiles.account(profileId) },
      // The service's answer behind one the mirror gave: the service answered (queued decisions may go), and the
      // screens that show the read take it in place.
      onRefreshed: (read) => {
        names.seen(read.value);
        outbox.noticeReachable();
        events.emit('read.refreshed', read);
      },
      log,
    } satisfies HandlerDeps),
  );
  const router = createRouter({
    handlers,
    onInternalError: (channel, error) => log(`handler ${channel} failed`, error),
  });
  watcher.start();
  // At start: what was queued before the app closed goes as soon as the service answers.
  void outbox.drain();

  return {
    router,
    events,
    media,
    settings,
    sandbox: { status: () => sandbox.status(), pid: () => sandbox.pid() },
    smoke: smokeProbes(sandbox, analyzer),
    async dispose() {
      watcher.stop();
      await review.flush();
      await outbox.close();
      database.db.close();
      await downloads.dispose();
      await analyzer.close();
      await sandbox.close();
    },
  };
}

/** The smoke test's checks of the sandbox's process and of a worker's MP3 decode (electron/smoke-test.ts). */
function smokeProbes(sandbox: SandboxSupervisor, analyzer: Analyzer): SmokeProbes {
  return {
    async sandbox() {
      const connection = await sandbox.ensure();
      const fetchTrusted = trustedFetch(async () => connection.certificate);
      const answer = await fetchTrusted(`${connection.url}/projects?pageSize=1`, {
        headers: { 'x-access-token': connection.token },
      });
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`the sandbox answered GET /projects with ${answer.status}`);
      return `the sandbox process (pid ${sandbox.pid() ?? '?'}) answered GET /projects at ${connection.url}`;
    },
    async decodeMp3(path) {
      const analysis = await analyzer.analyze(path);
      if (analyzer.mode !== 'worker') throw new Error('the analyzer fell back to the main thread');
      if (analysis.codec !== 'mp3' || !(analysis.durationSeconds > 0.9))
        throw new Error(`decoded ${analysis.codec}, ${analysis.durationSeconds} s (want mp3, ~1 s)`);
      return `a worker thread decoded ${analysis.durationSeconds.toFixed(2)} s of MP3 (${analysis.integratedLufs?.toFixed(1) ?? '?'} LUFS)`;
    },
  };
}
