import { join } from 'node:path';
import type { StateNotices } from '../kernel/state-recovery';
import type { AudioAnalysis } from '../../../shared/audio';
import { orderedSecondsOf } from '../../../shared/api';
import {
  projectDownloads,
  showsFilesOf,
  type DownloadJob,
  type ProjectDownloadSelection,
} from '../../../shared/ipc';
import { activeProfileId } from '../kernel/active-profile-id';
import type { EventBus } from '../kernel/events';
import type { Library } from '../library';
import { localError } from '../kernel/local-error';
import type { Profiles } from '../profiles';
import type { SettingsService } from '../profiles';
import { createFollowThreads, type FollowedEnvelope } from './follow-threads';
import type { DownloadRequest, ResolvedDownload } from './job';
import { createDownloads, DownloadNotFoundError } from './queue';
import { createTransferThread } from './transfer-thread';
import { withRedirects } from './transport';

/** The downloads as the handlers see them. */
export interface DownloadsPort {
  start(input: DownloadRequest): Promise<DownloadJob>;
  startProject(input: { projectId: string } & ProjectDownloadSelection): Promise<DownloadJob[]>;
  list(): Promise<DownloadJob[]>;
  pause(id: string): Promise<DownloadJob>;
  resume(id: string): Promise<DownloadJob>;
  cancel(id: string): Promise<DownloadJob>;
}

export interface DownloadsService {
  port: DownloadsPort;
  /** The waveform so far of a job streaming in, from its follow thread (see Downloads.envelope). */
  envelope(id: string, from: number): Promise<FollowedEnvelope | null>;
  /** App quit: stops transfers (they resume at the next start) and the transfer and follow threads. */
  dispose(): Promise<void>;
}

/**
 * The download queue, resolved against the active profile's service: the renderer names a deliverable, its
 * project and a format; main finds the URL (never taken from the renderer) and files it in the library.
 */
export function createDownloadsService(deps: {
  dataDir: string;
  library: Library;
  /** The library's start-up check: no download renames a file over one it is verifying. */
  libraryChecked: Promise<unknown>;
  settings: SettingsService;
  profiles: Pick<Profiles, 'active' | 'get' | 'state'>;
  events: EventBus;
  /** Analyses a finished file whose analysis did not come out of the stream. */
  analyze: (path: string) => Promise<AudioAnalysis>;
  /** Told what was reset when the queue's file was damaged. */
  notices?: StateNotices;
}): DownloadsService {
  const activeId = () => activeProfileId(deps.profiles);

  async function resolve(request: DownloadRequest): Promise<ResolvedDownload> {
    // A job goes on with the profile it was started under, whichever is active when it (re)starts.
    const { client: api, ca } = request.profileId
      ? await deps.profiles.get(request.profileId)
      : await deps.profiles.active();
    const deliverable = await api.getDeliverable(request.deliverableId);
    const project = await api.getProject(request.projectId);
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
      projectId: request.projectId,
      projectTitle: project.title,
      serviceSubCategory: deliverable.serviceSubCategory,
      deliverableName: deliverable.name,
      version,
      orderedSeconds: orderedSecondsOf(project, deliverable.serviceSubCategory),
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

  async function resolveProject(
    projectId: string,
    selection?: ProjectDownloadSelection,
  ): Promise<DownloadRequest[]> {
    const { profile, client } = await deps.profiles.active();
    const list = await client.listDeliverables(projectId);
    return projectDownloads(list, selection).map((file) => ({ ...file, projectId, profileId: profile.id }));
  }

  // Checksum, loudness and peaks are computed on follow threads while each file streams in; transfers run on a
  // thread that receives and writes (this thread if it cannot start). README.md in this folder says why.
  const follow = createFollowThreads({ analyze: true });
  const transfers = createTransferThread({ slots: follow.readBuffers });
  const downloads = createDownloads({
    library: deps.library,
    resolve,
    resolveProject,
    emit: deps.events.emit,
    legacyProfileId: activeId,
    stateFile: join(deps.dataDir, 'downloads.json'),
    concurrency: () => deps.settings.current().concurrency,
    startAfter: deps.libraryChecked,
    follow,
    fetchImpl: withRedirects(transfers),
    analyze: (path) => deps.analyze(path),
    notices: deps.notices,
  });

  /** The id of a job the active profile's screens show; another profile's is "not found" here. */
  async function ownJob(id: string): Promise<string> {
    const state = await deps.profiles.state();
    if (!(await downloads.list()).some((job) => job.id === id && showsFilesOf(state, job.profileId)))
      throw new DownloadNotFoundError(`No download ${id}.`);
    return id;
  }

  return {
    port: {
      start: async (input) => downloads.start({ ...input, profileId: await activeId() }),
      startProject: ({ projectId, ...selection }) => downloads.startProject(projectId, selection),
      list: async () => {
        const state = await deps.profiles.state();
        return (await downloads.list()).filter((job) => showsFilesOf(state, job.profileId));
      },
      pause: async (id) => downloads.pause(await ownJob(id)),
      resume: async (id) => downloads.resume(await ownJob(id)),
      cancel: async (id) => downloads.cancel(await ownJob(id)),
    },
    envelope: (id, from) => downloads.envelope(id, from),
    dispose: async () => {
      await deps.libraryChecked;
      await downloads.close();
      await transfers.close();
      await follow.close();
    },
  };
}
