import { join } from 'node:path';
import type { AudioAnalysis, DeliveryTargetId, QaVerdict } from '../../shared/audio';
import { qaVerdict } from '../../shared/audio';
import type { Deliverable, Project } from '../../shared/api';
import { isAudioFormat, type LibraryItem, type MediaFormat } from '../../shared/ipc';
import type { Analyzer } from './audio/analyzer';
import {
  createDownloads,
  createWorkerFollow,
  createWorkerHttp,
  withRedirects,
  type DownloadRequest,
  type Downloads,
  type ResolvedDownload,
} from './downloads';
import type { EventBus } from './events';
import { localError } from './local-error';
import type { DownloadsPort, LibraryPort } from './handlers';
import { createLibrary, type Library } from './library';
import type { Profiles } from './profiles';
import { readPeaks } from './peaks-payload';
import type { SettingsService } from './settings';

type Request = DownloadRequest & { projectId?: string };

/** Which formats a deliverable offers: audio as wav + mp3, scripts as pdf + their text. */
export function formatsOf(deliverable: Pick<Deliverable, 'urls'>): MediaFormat[] {
  const urls = deliverable.urls as Record<string, unknown>;
  const out: MediaFormat[] = [];
  for (const format of ['wav', 'mp3', 'pdf'] as const) if (typeof urls[format] === 'string') out.push(format);
  if (typeof urls.content === 'string') out.push('txt');
  return out;
}

/** Ordered length of an audio-ads deliverable: the `seconds` of its service (returned as units in seconds). */
export function orderedSecondsFor(project: Project, serviceSubCategory: string): number | null {
  if (project.mainService !== 'audio_ads') return null;
  const service = project.services.find((s) => s.subCategory === serviceSubCategory);
  if (!service) return null;
  if (typeof service.seconds === 'number') return service.seconds;
  return service.unitType === 'seconds' && typeof service.units === 'number' ? service.units : null;
}

/**
 * The offline library and the download manager, resolved against the active profile's service: the renderer
 * names a deliverable and a format, main finds the URL (never taken from the renderer).
 */
export function createLibraryServices(deps: {
  dataDir: string;
  settings: SettingsService;
  profiles: Pick<Profiles, 'active'>;
  events: EventBus;
  analyzer: Analyzer;
}): {
  library: LibraryPort;
  downloads: DownloadsPort;
  rememberDeliverables(projectId: string, list: Deliverable[]): void;
  /** Absolute path of a library-relative path (refused outside the library). */
  resolvePath(relativePath: string): string;
  dispose(): Promise<void>;
} {
  const library: Library = createLibrary({
    dir: () => deps.settings.current().libraryDir,
    emit: deps.events.emit,
  });
  // The start-up check: entries whose files vanished leave the manifest, and files listed before their data was
  // flushed (the app stopped in between) are verified, so a power cut never leaves a short file under its name.
  const checked = library.reconcile().catch(() => []);
  const projectOf = new Map<string, string>();
  const client = async () => (await deps.profiles.active()).client;

  const analyze = async (path: string): Promise<AudioAnalysis> => {
    const {
      verdict: _verdict,
      peaksPath: _peaksPath,
      ...analysis
    } = await deps.analyzer.analyze(path, {
      writePeaks: true,
    });
    return analysis;
  };

  async function resolve(request: Request): Promise<ResolvedDownload> {
    const { client: api, ca } = await deps.profiles.active();
    const deliverable = await api.getDeliverable(request.deliverableId);
    const extra = deliverable as Record<string, unknown>;
    const projectId =
      request.projectId ??
      projectOf.get(deliverable.id) ??
      (typeof extra.projectId === 'string' ? extra.projectId : null);
    if (!projectId) {
      throw localError('VALIDATION_ERROR', 'Open this deliverable from its project to download it.');
    }
    projectOf.set(deliverable.id, projectId);
    const project = await api.getProject(projectId);
    let urls = deliverable.urls as Record<string, unknown>;
    let version = 1;
    try {
      const { versions } = await api.listVersions(deliverable.id);
      if (versions.length > 0) {
        version = Math.min(request.version ?? versions.length, versions.length);
        urls = versions[version - 1]!.urls as Record<string, unknown>;
      }
    } catch {
      // Without the versions scope, the deliverable's own links are its latest version.
    }
    const base = {
      projectId,
      projectTitle: project.title,
      serviceSubCategory: deliverable.serviceSubCategory,
      deliverableName: deliverable.name,
      version,
      orderedSeconds: orderedSecondsFor(project, deliverable.serviceSubCategory),
    };
    if (request.format === 'txt') {
      if (typeof urls.content !== 'string')
        throw localError('FORMAT_NOT_AVAILABLE', 'This deliverable has no script text.');
      return { ...base, content: urls.content };
    }
    const url = urls[request.format];
    if (typeof url !== 'string') {
      throw localError(
        'FORMAT_NOT_AVAILABLE',
        `This deliverable has no ${request.format.toUpperCase()} file.`,
      );
    }
    // No token: media links are the service's own (signed) URLs. The profile's trust goes along (the sandbox's CA).
    return { ...base, url, ...(ca ? { ca } : {}) };
  }

  async function resolveProject(projectId: string, formats?: MediaFormat[]): Promise<DownloadRequest[]> {
    const list = await (await client()).listDeliverables(projectId);
    rememberDeliverables(projectId, list);
    return list.flatMap((d) =>
      formatsOf(d)
        .filter((f) => (formats ? formats.includes(f) : f !== 'txt'))
        .map((format) => ({ deliverableId: d.id, format, projectId }) as Request),
    );
  }

  function rememberDeliverables(projectId: string, list: Deliverable[]) {
    for (const d of list) projectOf.set(d.id, projectId);
  }

  const follow = createWorkerFollow({ analyze: true });
  // Transfers run on a worker thread that receives and writes (falls back to this thread if it cannot start).
  const transfers = createWorkerHttp({ slots: follow.readBuffers });
  const downloads: Downloads = createDownloads({
    library,
    resolve,
    resolveProject,
    emit: deps.events.emit,
    stateFile: join(deps.dataDir, 'downloads.json'),
    concurrency: () => deps.settings.current().concurrency,
    startAfter: checked,
    // Checksum, loudness and peaks are computed in a worker while each file streams in; the analyzer pool is the
    // fallback for files whose analysis did not come out of the stream.
    follow,
    fetchImpl: withRedirects(transfers),
    analyze: (path) => analyze(path),
  });

  const itemPath = async (id: string) => {
    try {
      return await library.pathOf(id);
    } catch {
      return null;
    }
  };
  const requirePath = async (id: string) => {
    const path = await itemPath(id);
    if (!path) throw localError('NOT_FOUND_LOCAL', 'This file is not in the library.');
    return path;
  };
  const requireItem = async (id: string): Promise<LibraryItem> => {
    const item = await library.get(id);
    if (!item) throw localError('NOT_FOUND_LOCAL', 'This file is not in the library.');
    return item;
  };
  const analysisOf = async (item: LibraryItem): Promise<AudioAnalysis> => {
    if (item.analysis) return item.analysis;
    if (!isAudioFormat(item.format)) {
      throw localError('VALIDATION_ERROR', 'Only WAV and MP3 files can be analysed.');
    }
    const analysis = await analyze(await requirePath(item.id));
    await library.upsert({ ...item, analysis, hasPeaks: true });
    return analysis;
  };

  return {
    rememberDeliverables,
    resolvePath: (relativePath) => library.resolve(relativePath),
    library: {
      list: (projectId) => library.list(projectId),
      remove: (id) => library.remove(id),
      pathOf: itemPath,
      peaks: async (id) => {
        const item = await library.get(id);
        const path = item ? await itemPath(id) : null;
        if (!item || !path) return null;
        const stored = await readPeaks(path);
        if (stored || !isAudioFormat(item.format)) return stored;
        // The sidecar is missing (deleted, or the analysis while streaming failed): build it again on the pool,
        // where a long MP3 decodes on two threads at once.
        try {
          await deps.analyzer.peaks(path, { write: true });
        } catch {
          return null;
        }
        if (!item.hasPeaks) await library.upsert({ ...item, hasPeaks: true });
        return readPeaks(path);
      },
      analyze: async (id) => analysisOf(await requireItem(id)),
      qa: async (id: string, target: DeliveryTargetId, orderedSeconds?: number): Promise<QaVerdict> => {
        const item = await requireItem(id);
        return qaVerdict(await analysisOf(item), target, {
          orderedSeconds: orderedSeconds ?? item.orderedSeconds ?? null,
        });
      },
    },
    downloads: {
      start: (input) => downloads.start(input as Request),
      startProject: (input) => downloads.startProject(input.projectId, input.formats),
      list: () => downloads.list(),
      pause: (id) => downloads.pause(id),
      resume: (id) => downloads.resume(id),
      cancel: (id) => downloads.cancel(id),
    },
    dispose: async () => {
      await checked;
      await downloads.close();
      await transfers.close();
      await follow.close();
    },
  };
}
