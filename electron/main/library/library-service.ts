import type { AudioAnalysis, DeliveryTargetId, QaVerdict } from '../../../shared/audio';
import type { StateNotices } from '../kernel/state-recovery';
import { qaVerdict } from '../../../shared/audio';
import { isAudioFormat, showsFilesOf, type LibraryItem, type PeaksPayload } from '../../../shared/ipc';
import type { Analyzer } from '../audio/analyzer';
import { AudioDecodeError } from '../audio/errors';
import { activeProfileId } from '../kernel/active-profile-id';
import type { EventBus } from '../kernel/events';
import { inLibrary, localError } from '../kernel/local-error';
import type { Profiles } from '../profiles';
import { readPeaks } from './peaks-payload';
import type { SettingsService } from '../profiles';
import { createLibrary, LibraryFileError, type KnownFile, type Library } from './library';

/** The library as the handlers see it. */
export interface LibraryPort {
  list(projectId?: string): Promise<LibraryItem[]>;
  remove(id: string): Promise<LibraryItem[]>;
  pathOf(id: string): Promise<string | null>;
  peaks(id: string): Promise<PeaksPayload | null>;
  analyze(id: string): Promise<AudioAnalysis>;
  qa(id: string, target: DeliveryTargetId, orderedSeconds?: number): Promise<QaVerdict>;
}

export interface LibraryService {
  port: LibraryPort;
  /** The library itself, for the downloads that add to it. */
  library: Library;
  /** The start-up check (see Library.reconcile); downloads wait for it. */
  checked: Promise<unknown>;
  /** Loudness, true peak and format facts of a file on the analyzer pool, writing its `.peaks` sidecar. */
  analyze(path: string): Promise<AudioAnalysis>;
}

/** Why an item's file could not be analysed, as a typed error in plain words (never an untyped INTERNAL). */
function analysisFailure(item: LibraryItem, error: unknown): Error {
  const what = `"${item.deliverableName}" (version ${item.version}, ${item.format.toUpperCase()})`;
  if (error instanceof AudioDecodeError) {
    return localError(
      'AUDIO_UNREADABLE',
      `${what} could not be read as ${item.format.toUpperCase()} audio: ${error.message} ` +
        'The file in the library may be damaged; remove it and download it again.',
    );
  }
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/u.test(code)) {
    return localError('NOT_FOUND_LOCAL', `The file of ${what} could not be read (${code}).`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** The offline library in the folder the settings name, its items' analyses and QA verdicts. */
export function createLibraryService(deps: {
  settings: SettingsService;
  events: EventBus;
  analyzer: Analyzer;
  /** The profiles: the port shows and acts on the active one's files (see showsFilesOf). */
  profiles: Pick<Profiles, 'state'>;
  /** Told when the manifest was damaged and what was rebuilt. */
  notices?: StateNotices;
  /** What the download queue knows of finished files (full ids for files a damaged manifest lost). */
  knownFiles?: () => Promise<Map<string, KnownFile>>;
  /** A take's status as the review index last knew it (read offline too), for each listed file. */
  takeStatus?: (profileId: string, projectId: string, deliverableId: string) => string | undefined;
}): LibraryService {
  const library = createLibrary({
    dir: () => deps.settings.current().libraryDir,
    emit: deps.events.emit,
    notices: deps.notices,
    knownFiles: deps.knownFiles,
  });
  // Entries whose files vanished leave the manifest, and files listed before their data was flushed (the app
  // stopped in between) are verified, so a power cut never leaves a short file under its name. Then entries of
  // versions before profiles kept their own files go to the profile active now: never hidden, never dropped.
  const checked = library
    .reconcile()
    .catch(() => [])
    .then(() => adoptUntagged())
    .catch(() => undefined);

  async function adoptUntagged(): Promise<void> {
    if ((await library.list()).some((item) => !item.profileId))
      await library.adoptUntagged(await activeProfileId(deps.profiles));
  }

  /** The item if it belongs to the active profile: another profile's file is "not in the library" here. */
  const ownItem = async (id: string): Promise<LibraryItem | null> => {
    await checked;
    const item = await library.get(id);
    return item && showsFilesOf(await deps.profiles.state(), item.profileId) ? item : null;
  };

  const analyze = async (path: string): Promise<AudioAnalysis> => {
    const {
      verdict: _verdict,
      peaksPath: _peaksPath,
      ...analysis
    } = await deps.analyzer.analyze(path, {
      writePeaks: true,
    });
    // The analyzer writes the peaks beside the file: they belong in the sidecar folder, out of the client's folder.
    await library.adoptPeaksBeside(path);
    return analysis;
  };

  const itemPath = async (id: string) => {
    try {
      return (await ownItem(id)) ? await library.pathOf(id) : null;
    } catch (error) {
      // A link or a folder where the file was: say so (nothing is read through it); anything else is "not here".
      if (error instanceof LibraryFileError) throw error;
      return null;
    }
  };
  const requirePath = async (id: string) => inLibrary(await itemPath(id));
  const requireItem = async (id: string): Promise<LibraryItem> => inLibrary(await ownItem(id));
  const analysisOf = async (item: LibraryItem): Promise<AudioAnalysis> => {
    if (item.analysis) return item.analysis;
    if (!isAudioFormat(item.format)) {
      throw localError('VALIDATION_ERROR', 'Only WAV and MP3 files can be analysed.');
    }
    const path = await requirePath(item.id);
    let analysis: AudioAnalysis;
    try {
      analysis = await analyze(path);
    } catch (error) {
      throw analysisFailure(item, error);
    }
    // The measurement stands even where it cannot be remembered (a library that cannot be written to).
    await library.upsert({ ...item, analysis, hasPeaks: true }).catch(() => undefined);
    return analysis;
  };

  /** The item with its take's status beside it (for the list only: the manifest keeps what is on disk). */
  function withTakeStatus(item: LibraryItem, profileId: string): LibraryItem {
    const status = deps.takeStatus?.(profileId, item.projectId, item.deliverableId);
    return status === undefined ? item : { ...item, takeStatus: status };
  }

  const port: LibraryPort = {
    list: async (projectId) => {
      await checked;
      const state = await deps.profiles.state();
      return (await library.list(projectId))
        .filter((item) => showsFilesOf(state, item.profileId))
        .map((item) => withTakeStatus(item, item.profileId ?? state.activeId));
    },
    remove: async (id) => {
      await requireItem(id);
      await library.remove(id);
      return port.list();
    },
    pathOf: itemPath,
    peaks: async (id) => {
      const item = await ownItem(id);
      const path = item ? await itemPath(id) : null;
      if (!item || !path) return null;
      const sidecar = await library.peaksPathOf(item.relativePath).catch(() => null);
      const stored = sidecar ? await readPeaks(sidecar) : null;
      if (stored || !isAudioFormat(item.format)) return stored;
      // The sidecar is missing (deleted, or the analysis while streaming failed): build it again on the pool,
      // where a long MP3 decodes on two threads at once.
      try {
        await deps.analyzer.peaks(path, { write: true });
      } catch {
        return null;
      }
      if (!(await library.adoptPeaksBeside(path))) return null;
      if (!item.hasPeaks) await library.upsert({ ...item, hasPeaks: true });
      return readPeaks(await library.peaksPathOf(item.relativePath));
    },
    analyze: async (id) => analysisOf(await requireItem(id)),
    qa: async (id, target, orderedSeconds) => {
      const item = await requireItem(id);
      return qaVerdict(await analysisOf(item), target, {
        orderedSeconds: orderedSeconds ?? item.orderedSeconds ?? null,
      });
    },
  };
  return { port, library, checked, analyze };
}
