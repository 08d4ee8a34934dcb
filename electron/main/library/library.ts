import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve as resolvePath, sep } from 'node:path';
import { z } from 'zod';
import { MEDIA_FORMATS, type LibraryItem, type MediaFormat } from '../../../shared/ipc';
import type { EventBus } from '../events';
import {
  createStateNotices,
  recoverStateFile,
  removeStaleTempFiles,
  type StateNotices,
} from '../state-recovery';
import { placeNoReplace, writeFileReplacing, type LinkFn } from './safe-fs';
import {
  libraryRelativePath,
  PathEscapeError,
  resolveInside,
  SIDECAR_FOLDER,
  SIDECAR_FORMATS,
  withCollisionSuffix,
  type LibraryPathParts,
} from './sanitize';

/** Folder (inside the library) that holds our bookkeeping; never shown as a project. */
export const META_DIR = '.takedesk';
/**
 * Waveform peaks and script text live here, mirroring the layout (`<library>/.takedesk/sidecars/<relative
 * path>.peaks`, `…/<project folder>/<file>.txt`), so the deliverable folders hold only deliverables and can be
 * handed to a client as they are.
 */
export const SIDECAR_DIR = SIDECAR_FOLDER;
/** The peaks sidecar of an item's file, relative to the library. */
export const peaksRelativePath = (relativePath: string): string => `${SIDECAR_DIR}/${relativePath}.peaks`;
const MANIFEST = 'library.json';
// 2: every item has a file of its own (paths carry the deliverable's short id; no two items share a file).
const MANIFEST_VERSION = 2;

/** Collaborators of the library. */
export interface LibraryDeps {
  /** The library folder (a setting, so read it each time). */
  dir: () => string;
  /** Receives 'library.changed' after every change of the manifest. */
  emit?: EventBus['emit'];
  /** Hard-link call of the commit (tests inject one that fails, like a file system without hard links). */
  link?: LinkFn;
  /** Told when the manifest was damaged: what was reset and how many files were listed again. */
  notices?: StateNotices;
  /**
   * What other records say of a file, by relative path (the download queue's finished jobs): a file a damaged
   * manifest lost gets its full ids and profile back from there rather than the short ids of its name.
   */
  knownFiles?: () => Promise<Map<string, KnownFile>>;
}

/** A file's identity as another record kept it. */
export type KnownFile = Pick<
  LibraryItem,
  | 'id'
  | 'projectId'
  | 'projectTitle'
  | 'deliverableId'
  | 'deliverableName'
  | 'serviceSubCategory'
  | 'version'
  | 'format'
  | 'orderedSeconds'
  | 'profileId'
>;

/** What `commit` needs: a complete part file, the planned name, and the item to list under the name it gets. */
export interface CommitRequest {
  /** Absolute path of the complete part file (from `resolveReal`). */
  part: string;
  /** Absolute path of its `.peaks` sidecar, if one was written beside the part. */
  peaks?: string | null;
  /** The planned relative path; a suffix ` (n)` is added when it is taken. */
  planned: string;
  /** The entry; `relativePath` is set to the name the file gets. */
  item: LibraryItem;
}

/** Thrown for an id that is not in the manifest. */
export class LibraryItemNotFoundError extends Error {
  override name = 'LibraryItemNotFoundError';
  readonly type = 'NOT_FOUND';
}

/**
 * Why an item's file cannot be used or removed, in words for the producer: `LINK_REFUSED` (a link stands where the
 * file was: Takedesk reads nothing through it), `NOT_A_FILE` (a folder or another non-file stands there),
 * `LIBRARY_NOT_WRITABLE` (the manifest could not be saved: nothing changed, or a listed file could not be deleted).
 */
export class LibraryFileError extends Error {
  override name = 'LibraryFileError';
  readonly status = 0;
  constructor(
    readonly type: 'LINK_REFUSED' | 'NOT_A_FILE' | 'LIBRARY_NOT_WRITABLE',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Proves that `path` is a regular file itself, not a link to one. Its folder is already the real one inside the
 * library (`resolveReal` compared real paths); its own entry is read without following a link. (Comparing the
 * file's real path too would add nothing, and on a disk that ignores case it would refuse a file whose name
 * differs from the recorded one only in case.)
 */
async function checkItemFile(path: string): Promise<void> {
  let st: Stats;
  try {
    st = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // gone: each caller says "not found" its way
    throw error;
  }
  if (st.isSymbolicLink()) {
    throw new LibraryFileError(
      'LINK_REFUSED',
      `${path} is a link, not the file Takedesk downloaded; Takedesk does not read or serve files through links ` +
        'in the library. Remove the link, then download the file again.',
    );
  }
  if (!st.isFile()) {
    throw new LibraryFileError(
      'NOT_A_FILE',
      `${path} is a folder (or another kind of entry), not the file Takedesk downloaded. Move it out of the ` +
        'library, then download the file again.',
    );
  }
}

/** The offline library: a manifest of complete files on disk, browsable with no network. */
export interface Library {
  /** Absolute library folder. */
  root(): string;
  /** Items, newest first; only one project's when `projectId` is given. */
  list(projectId?: string): Promise<LibraryItem[]>;
  get(id: string): Promise<LibraryItem | null>;
  /**
   * Adds or replaces (same id) an item whose file is already complete at its relativePath; refuses a path that
   * another item owns.
   */
  upsert(item: LibraryItem): Promise<LibraryItem>;
  /** Gives every entry without a profile this one, in one save (entries of versions before profiles); how many. */
  adoptUntagged(profileId: string): Promise<number>;
  /** Changes fields of an item if it is still the same download (`downloadedAt`); null when it is gone or replaced. */
  update(id: string, downloadedAt: string, patch: Partial<LibraryItem>): Promise<LibraryItem | null>;
  /**
   * The commit point of a download: gives the part its final name without ever replacing an existing file (the
   * planned name, else the next free `name (n).ext`), moves the peaks sidecar beside it and lists the item, in one
   * step no other library change interleaves with. A file already at the name with the same bytes and no other
   * owner (left by a crash after the rename) is taken over. An older file of the same item is deleted afterwards.
   */
  commit(request: CommitRequest): Promise<LibraryItem>;
  /**
   * Deletes the entry, then its file and `.peaks` sidecar, unless another item points at that file or the path
   * leads out of the library through a link; returns what is left.
   */
  remove(id: string): Promise<LibraryItem[]>;
  /**
   * Absolute path of an item's file, proven to be inside the library after links are resolved, and to be a
   * regular file itself when it exists (a LibraryFileError for a link or a folder).
   */
  pathOf(id: string): Promise<string>;
  /** Absolute path for a relative path, proven to be inside the library by its text (PathEscapeError otherwise). */
  resolve(relativePath: string): string;
  /**
   * Absolute path for a relative path whose folder, after links are resolved, is inside the library's real folder
   * (PathEscapeError otherwise); with `create`, missing folders are made first.
   */
  resolveReal(relativePath: string, create?: boolean): Promise<string>;
  /**
   * Absolute path of the peaks sidecar of a file at `relativePath` (in the hidden sidecar folder), proven inside the
   * library like `resolveReal`; with `create`, its folders are made first.
   */
  peaksPathOf(relativePath: string, create?: boolean): Promise<string>;
  /**
   * Moves a `<file>.peaks` just written beside a file of the library (the analyzer writes it there) into the sidecar
   * folder; true when the sidecar is in place. A link at that name is left alone and never read.
   */
  adoptPeaksBeside(path: string): Promise<boolean>;
  /** Where a deliverable's file goes, relative to the library (sanitised layout). */
  planPath(parts: LibraryPathParts): string;
  /** Stable id of the library item for one deliverable version in one format. */
  itemId(deliverableId: string, version: number, format: MediaFormat): string;
  /** Clears `unsynced` once the item's data is on disk; false when that download was replaced or removed since. */
  markSynced(id: string, downloadedAt: string): Promise<boolean>;
  /**
   * Drops entries whose files vanished, re-verifies `unsynced` ones (size and sha256; a mismatch is dropped and
   * its file deleted, a match is made durable) and refreshes hasPeaks; returns the dropped items, with those the
   * migration of an older manifest dropped (see `migrateShared`).
   */
  reconcile(): Promise<LibraryItem[]>;
}

/** Flushes a file's data to the disk (open, fsync, close); throws what the file system reports. */
export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  await handle.sync().finally(() => handle.close());
}

/** Flushes a folder's entries (a rename inside it) to the disk; best effort. */
export async function syncFolder(path: string): Promise<void> {
  try {
    await syncFile(path);
  } catch {
    // Directories cannot be opened for fsync on Windows; the rename is still atomic there.
  }
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Whether an item written before its data was flushed is intact: 'bad' when its size or checksum differ (a power
 * cut in the writeback window), 'unknown' when the file could not be read or flushed (ask again next time).
 */
async function verifyUnsynced(path: string, item: LibraryItem): Promise<'good' | 'bad' | 'unknown'> {
  try {
    if ((await stat(path)).size !== item.size) return 'bad';
    if (item.sha256 !== '' && (await sha256Of(path)) !== item.sha256) return 'bad';
    await syncFile(path);
  } catch {
    return 'unknown';
  }
  await syncFolder(dirname(path));
  return 'good';
}

const withoutUnsynced = ({ unsynced: _unsynced, ...item }: LibraryItem): LibraryItem => item;

interface ManifestFile {
  version: number;
  items: LibraryItem[];
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Items whose paths may name one file (same text up to case and Unicode form: one file on macOS and Windows). */
const pathKey = (relativePath: string) => relativePath.normalize('NFC').toLowerCase();

const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino;

/** Whether `child` is `parent` or inside it (both absolute, resolved). */
function within(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** An item's id: one per deliverable, version and format. */
function itemId(deliverableId: string, version: number, format: MediaFormat): string {
  return createHash('sha256').update(`${deliverableId}\0${version}\0${format}`).digest('hex').slice(0, 24);
}

/** `<project title> (<id8>)`: a project's folder. */
const PROJECT_FOLDER = /^(.+) \(([0-9a-f]{8})\)$/u;
/** `<service>-<name>-<deliverable id8>-v<n>[ (k)].<ext>`: a file libraryRelativePath named. */
const FILE_NAME = new RegExp(
  `^([^-]+)-(.+)-([0-9a-f]{8})-v(\\d+)(?: \\(\\d+\\))?\\.(${MEDIA_FORMATS.join('|')})$`,
  'u',
);

/** The manifest; an entry that is not an item is dropped alone. */
const ManifestSchema = z.object({
  version: z.number().optional(),
  items: z.array(z.custom<LibraryItem>(isItem)),
});

function isItem(value: unknown): value is LibraryItem {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    typeof v.relativePath === 'string' &&
    typeof v.projectId === 'string' &&
    typeof v.deliverableId === 'string' &&
    typeof v.size === 'number' &&
    typeof v.sha256 === 'string'
  );
}

/** Creates the library service over the folder `deps.dir()`; the manifest is cached per folder. */
export function createLibrary(deps: LibraryDeps): Library {
  let cache: { root: string; items: Map<string, LibraryItem> } | null = null;
  /** Items the migration of an older manifest dropped, reported by the next reconcile. */
  let migrationDropped: LibraryItem[] = [];
  // One queue for every read-modify-write so concurrent downloads never lose each other's entries.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  const root = () => resolveRoot(deps.dir());
  const manifestRel = `${META_DIR}/${MANIFEST}`;

  /**
   * The absolute path of `relativePath` with its folder resolved through any links, proven to be inside the real
   * library folder. A folder that does not exist (yet) has no link to follow: its textual path is returned unless
   * `create` asks to make it.
   */
  async function resolveReal(relativePath: string, create = false): Promise<string> {
    const base = root();
    const textual = resolveInside(base, relativePath);
    const parent = dirname(textual);
    if (create) await mkdir(parent, { recursive: true });
    let realBase: string;
    let realParent: string;
    try {
      realBase = await realpath(base);
      realParent = await realpath(parent);
    } catch (error) {
      if (!create && (error as NodeJS.ErrnoException).code === 'ENOENT') return textual;
      throw error;
    }
    if (!within(realBase, realParent)) {
      throw new PathEscapeError(
        `${JSON.stringify(relativePath)} goes through a link that leads out of the library (to ${realParent}); ` +
          'Takedesk does not follow links out of the library. Remove the link or choose another library folder.',
      );
    }
    return join(realParent, basename(textual));
  }

  /** The sidecar of a file, through `resolveReal` (never out of the library through a link). */
  function peaksPath(relativePath: string, create = false): Promise<string> {
    return resolveReal(peaksRelativePath(relativePath), create);
  }

  async function peaksExist(relativePath: string): Promise<boolean> {
    const sidecar = await peaksPath(relativePath).catch(() => null);
    return sidecar !== null && (await exists(sidecar));
  }

  /**
   * Moves `<file>.peaks` beside the file into the sidecar folder. Only a regular file of that exact name is moved
   * (a link is left alone). The rename replaces whatever stood at the sidecar's name (a damaged one, or a link,
   * never written through): both are Takedesk's peaks of the same audio. Best effort: a failure leaves it there.
   */
  async function movePeaksIn(path: string, relativePath: string): Promise<boolean> {
    const beside = `${path}.peaks`;
    const st = await lstat(beside).catch(() => null);
    if (!st?.isFile()) return false;
    try {
      await rename(beside, await peaksPath(relativePath, true));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * An item of a sidecar format (`.txt`) still in its project folder, moved to the same place under the sidecar
   * folder and its entry pointed there (the caller saves the manifest). Only the item's own regular file moves, and
   * never over another file; a file another entry shares stays where it is. One found already moved (a crash
   * between the move and the save) is taken up. Best effort: on any failure the item stays as it was.
   */
  async function moveToSidecarFolder(
    items: Map<string, LibraryItem>,
    item: LibraryItem,
  ): Promise<LibraryItem> {
    if (!SIDECAR_FORMATS.has(item.format) || item.relativePath.startsWith(`${SIDECAR_DIR}/`)) return item;
    const key = pathKey(item.relativePath);
    if ([...items.values()].some((other) => other.id !== item.id && pathKey(other.relativePath) === key))
      return item;
    const targetRel = `${SIDECAR_DIR}/${item.relativePath}`;
    if (ownerOf(items, targetRel, item.id)) return item;
    try {
      const from = await resolveReal(item.relativePath);
      const fromSt = await lstat(from).catch(() => null);
      const to = await resolveReal(targetRel, true);
      const toSt = await lstat(to).catch(() => null);
      if (fromSt?.isFile() && !toSt) await rename(from, to);
      else if (!(fromSt === null && toSt?.isFile())) return item;
    } catch {
      return item;
    }
    const next = { ...item, relativePath: targetRel };
    items.set(item.id, next);
    return next;
  }

  async function load(): Promise<Map<string, LibraryItem>> {
    const dir = root();
    if (cache?.root === dir) return cache.items;
    const items = new Map<string, LibraryItem>();
    const file = await resolveReal(manifestRel);
    await removeStaleTempFiles(file);
    // A damaged manifest must not cost the library: its copy is kept, its good entries stay (state-recovery.ts),
    // and the files on disk it no longer lists are listed again from their names; the user is told once.
    const found = createStateNotices();
    const recovered = recoverStateFile(file, ManifestSchema, {
      label: 'The library list file',
      notices: found,
    });
    for (const item of recovered.value?.items ?? []) items.set(item.id, item);
    const version = recovered.value ? (recovered.value.version ?? 1) : MANIFEST_VERSION;
    cache = { root: dir, items };
    let rebuilt = 0;
    if (recovered.damaged) rebuilt = await relistFromDisk(dir, items);
    for (const notice of found.take())
      deps.notices?.report({
        ...notice,
        message: `${notice.message} ${rebuilt} file${rebuilt === 1 ? '' : 's'} in the library folder ${rebuilt === 1 ? 'was' : 'were'} listed again from ${rebuilt === 1 ? 'its name' : 'their names'}.`,
      });
    const changed = await migrateShared(items);
    if (changed || recovered.damaged || (recovered.value && version < MANIFEST_VERSION)) await save(items);
    return items;
  }

  /**
   * Lists again the files of the library folder a damaged manifest lost, from their names
   * (`<project title> (<id8>)/<service>-<name>-<deliverable id8>-v<n>.<ext>`). Names carry only the short ids: the
   * download that made the file gives the full ones when the queue still has it; otherwise the short ids stand for
   * them. Checksum and analysis are unknown until the file is analysed again.
   */
  async function relistFromDisk(dir: string, items: Map<string, LibraryItem>): Promise<number> {
    let added = 0;
    const known = (await deps.knownFiles?.().catch(() => null)) ?? new Map<string, KnownFile>();
    // The project folders, then the sidecar folder, where only the formats kept there are listed.
    for (const prefix of ['', `${SIDECAR_DIR}/`]) {
      added += await relistFolders(dir, prefix, items, known);
    }
    return added;
  }

  async function relistFolders(
    dir: string,
    prefix: string,
    items: Map<string, LibraryItem>,
    known: Map<string, KnownFile>,
  ): Promise<number> {
    let added = 0;
    const base = join(dir, ...prefix.split('/').filter(Boolean));
    const folders = await readdir(base, { withFileTypes: true }).catch(() => []);
    for (const folder of folders) {
      const project = PROJECT_FOLDER.exec(folder.name);
      if (!folder.isDirectory() || folder.name === META_DIR || !project) continue;
      const files = await readdir(join(base, folder.name), { withFileTypes: true }).catch(() => []);
      for (const entry of files) {
        const named = FILE_NAME.exec(entry.name);
        if (!entry.isFile() || !named) continue;
        const relativePath = `${prefix}${folder.name}/${entry.name}`;
        if (ownerOf(items, relativePath)) continue;
        const [, service, deliverableName, deliverableId, version, format] = named as unknown as string[];
        if (prefix && !SIDECAR_FORMATS.has(format!)) continue;
        const path = join(dir, relativePath);
        const st = await stat(path).catch(() => null);
        if (!st) continue;
        const item: LibraryItem = {
          id: itemId(deliverableId!, Number(version), format as MediaFormat),
          projectId: project[2]!,
          projectTitle: project[1]!,
          deliverableId: deliverableId!,
          deliverableName: deliverableName!,
          serviceSubCategory: service!,
          version: Number(version),
          format: format as MediaFormat,
          relativePath,
          size: st.size,
          sha256: '',
          downloadedAt: st.mtime.toISOString(),
          orderedSeconds: null,
          analysis: null,
          // Peaks beside the file (an older version's) count too: the start-up check moves them.
          hasPeaks: (await peaksExist(relativePath)) || (await exists(`${path}.peaks`)),
          ...known.get(relativePath),
        };
        if (items.has(item.id)) continue;
        items.set(item.id, item);
        added++;
      }
    }
    return added;
  }

  /**
   * Migration of libraries written before every item had a path of its own (manifest version 1): two deliverables
   * with the same name shared one file, and the later download overwrote the earlier. Recorded paths are kept (no
   * file of the user is renamed). Of items that share one file, the newest whose sha256 matches the bytes keeps it;
   * one whose sha256 no longer matches (its bytes were overwritten) is dropped like a vanished file, so it shows as
   * not downloaded and can be downloaded again; one whose sha256 also matches gets a copy under a name of its own.
   */
  async function migrateShared(items: Map<string, LibraryItem>): Promise<boolean> {
    const byKey = new Map<string, LibraryItem[]>();
    for (const item of items.values()) {
      const key = pathKey(item.relativePath);
      byKey.set(key, [...(byKey.get(key) ?? []), item]);
    }
    let changed = false;
    for (const group of byKey.values()) {
      if (group.length < 2) continue;
      // One file per inode: on a case-sensitive disk 'A.wav' and 'a.wav' are two files.
      const byFile: Array<{ st: Stats; path: string; items: LibraryItem[] }> = [];
      for (const item of group) {
        let path: string;
        let st: Stats;
        try {
          path = await resolveReal(item.relativePath);
          st = await lstat(path);
        } catch {
          continue; // missing or outside: reconcile drops it
        }
        const same = byFile.find((f) => sameFile(f.st, st));
        if (same) same.items.push(item);
        else byFile.push({ st, path, items: [item] });
      }
      for (const { st, path, items: sharing } of byFile) {
        if (sharing.length < 2 || !st.isFile()) continue;
        const actual = await sha256Of(path).catch(() => null);
        const matches = (i: LibraryItem) =>
          i.size === st.size && (i.sha256 === '' ? actual !== null : i.sha256 === actual);
        const newestFirst = [...sharing].sort((a, b) => b.downloadedAt.localeCompare(a.downloadedAt));
        const keeper = newestFirst.find(matches) ?? newestFirst[0]!;
        for (const other of newestFirst) {
          if (other === keeper) continue;
          changed = true;
          if (matches(other)) {
            const own = await placeCopy(path, other.relativePath, items);
            if (own) {
              items.set(other.id, { ...other, relativePath: own, hasPeaks: false });
              continue;
            }
          }
          items.delete(other.id);
          migrationDropped.push(other);
        }
      }
    }
    return changed;
  }

  /** Gives the bytes at `path` a second, free name beside `relativePath` (a hard link, or a copy); null if it cannot. */
  async function placeCopy(
    path: string,
    relativePath: string,
    items: Map<string, LibraryItem>,
  ): Promise<string | null> {
    for (let n = 2; n < 100; n++) {
      const candidate = withCollisionSuffix(relativePath, n);
      if (ownerOf(items, candidate)) continue;
      try {
        await placeNoReplace(path, await resolveReal(candidate), { keepSource: true, link: deps.link });
        return candidate;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return null;
      }
    }
    return null;
  }

  const ownerOf = (items: Map<string, LibraryItem>, relativePath: string, exceptId?: string) => {
    const key = pathKey(relativePath);
    for (const item of items.values()) {
      if (item.id !== exceptId && pathKey(item.relativePath) === key) return item;
    }
    return null;
  };

  async function save(items: Map<string, LibraryItem>): Promise<void> {
    const body: ManifestFile = { version: MANIFEST_VERSION, items: [...items.values()] };
    try {
      const file = await resolveReal(manifestRel, true);
      await writeFileReplacing(file, `${JSON.stringify(body, null, 1)}\n`, { fsync: true });
    } catch (error) {
      if (error instanceof PathEscapeError) throw error;
      throw new LibraryFileError(
        'LIBRARY_NOT_WRITABLE',
        `The library's list of files (${manifestRel}) could not be saved (${describeFsError(error)}); nothing ` +
          'was changed. Check that the library folder can be written to.',
        { cause: error },
      );
    }
    deps.emit?.('library.changed', { count: items.size });
  }

  /**
   * A read-modify-write of the manifest. When it fails (the manifest could not be saved), the cached list is put
   * back as it was: what the app lists is what the manifest on disk says.
   */
  const mutating = <T>(task: (items: Map<string, LibraryItem>) => Promise<T>): Promise<T> =>
    serial(async () => {
      const items = await load();
      const before = new Map(items);
      try {
        return await task(items);
      } catch (error) {
        items.clear();
        for (const [id, item] of before) items.set(id, item);
        throw error;
      }
    });

  /** A folder where an item's file should be is not Takedesk's to delete: say so before anything changes. */
  async function refuseFolder(relativePath: string): Promise<void> {
    let path: string;
    try {
      path = await resolveReal(relativePath);
    } catch {
      return; // outside the library after links: deleteFiles leaves it alone
    }
    const st = await lstat(path).catch(() => null);
    if (st?.isDirectory()) {
      throw new LibraryFileError(
        'NOT_A_FILE',
        `${path} is a folder, not the file Takedesk downloaded; Takedesk does not delete folders. Move or delete ` +
          'it yourself, then remove the item again.',
      );
    }
  }

  const fsFailure = (error: unknown, relativePath: string) =>
    new LibraryFileError(
      'LIBRARY_NOT_WRITABLE',
      `"${relativePath}" is no longer listed, but its file could not be deleted (${describeFsError(error)}).`,
      { cause: error },
    );

  /** Deletes a file and its sidecar unless another item points at that same file; never through a link out. */
  async function deleteFiles(items: Map<string, LibraryItem>, relativePath: string): Promise<void> {
    let path: string;
    try {
      path = await resolveReal(relativePath);
    } catch {
      return; // outside the library after links: nothing there is ours to delete
    }
    const st = await lstat(path).catch(() => null);
    if (st) {
      const key = pathKey(relativePath);
      for (const other of items.values()) {
        if (pathKey(other.relativePath) !== key) continue;
        const theirs = await lstat(await resolveReal(other.relativePath)).catch(() => null);
        if (theirs && sameFile(theirs, st)) return;
      }
    }
    // rm removes a link itself, never what it points to.
    await rm(path, { force: true });
    await rm(`${path}.peaks`, { force: true }); // written by an older version beside the file
    const sidecar = await peaksPath(relativePath).catch(() => null);
    if (sidecar) await rm(sidecar, { force: true });
  }

  const sorted = (items: Iterable<LibraryItem>) =>
    [...items].sort(
      (a, b) => b.downloadedAt.localeCompare(a.downloadedAt) || a.relativePath.localeCompare(b.relativePath),
    );

  const library: Library = {
    root,
    async list(projectId) {
      const items = await serial(load);
      return sorted(items.values()).filter((item) => projectId === undefined || item.projectId === projectId);
    },
    async get(id) {
      const items = await serial(load);
      return items.get(id) ?? null;
    },
    upsert(item) {
      return mutating(async (items) => {
        resolveInside(root(), item.relativePath);
        const owner = ownerOf(items, item.relativePath, item.id);
        if (owner) {
          throw new PathEscapeError(
            `${JSON.stringify(item.relativePath)} already belongs to another library item (${owner.id}).`,
          );
        }
        items.set(item.id, { ...item });
        await save(items);
        return item;
      });
    },
    adoptUntagged(profileId) {
      return mutating(async (items) => {
        let adopted = 0;
        for (const [id, item] of items) {
          if (item.profileId) continue;
          items.set(id, { ...item, profileId });
          adopted++;
        }
        if (adopted > 0) await save(items);
        return adopted;
      });
    },
    update(id, downloadedAt, patch) {
      return mutating(async (items) => {
        const item = items.get(id);
        if (!item || item.downloadedAt !== downloadedAt) return null;
        const next = { ...item, ...patch, id, relativePath: item.relativePath };
        items.set(id, next);
        await save(items);
        return next;
      });
    },
    commit({ part, peaks, planned, item }) {
      return mutating(async (items) => {
        const previous = items.get(item.id) ?? null;
        let chosen: { rel: string; path: string } | null = null;
        for (let n = 1; n < 1000 && !chosen; n++) {
          const rel = withCollisionSuffix(planned, n);
          if (ownerOf(items, rel, item.id)) continue;
          const path = await resolveReal(rel, true);
          try {
            await placeNoReplace(part, path, { link: deps.link });
            chosen = { rel, path };
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
            if (await takeOver(path, part, item)) {
              chosen = { rel, path };
            }
          }
        }
        if (!chosen) throw new Error(`No free name for ${planned} in the library.`);
        let hasPeaks: boolean;
        if (peaks) {
          // A rename replaces whatever sits at the sidecar's name (a link included) and never writes through it.
          hasPeaks = await peaksPath(chosen.rel, true)
            .then((sidecar) => rename(peaks, sidecar))
            .then(
              () => true,
              () => false,
            );
        } else {
          hasPeaks = await peaksExist(chosen.rel);
        }
        const next: LibraryItem = { ...item, relativePath: chosen.rel, hasPeaks };
        items.set(item.id, next);
        await save(items);
        // The same deliverable version downloaded again, now under another name: its older file goes.
        if (previous && pathKey(previous.relativePath) !== pathKey(chosen.rel)) {
          await deleteFiles(items, previous.relativePath).catch(() => undefined);
        }
        return next;
      });
    },
    remove(id) {
      return serial(async () => {
        const items = await load();
        const item = items.get(id);
        if (!item) throw new LibraryItemNotFoundError(`No library item ${id}.`);
        await refuseFolder(item.relativePath);
        // The entry goes first: a crash before the files are deleted leaves an unlisted file, never a listed
        // item without its file. The list changes only once the manifest without it is saved.
        const rest = new Map(items);
        rest.delete(id);
        try {
          await save(rest);
        } catch (error) {
          throw new LibraryFileError(
            'LIBRARY_NOT_WRITABLE',
            `The library's list of files (${manifestRel}) could not be saved ` +
              `(${describeFsError(error instanceof LibraryFileError ? error.cause : error)}), so ` +
              `"${item.relativePath}" stays in the library. Check that the library folder can be written to.`,
            { cause: error },
          );
        }
        items.delete(id);
        await deleteFiles(items, item.relativePath).catch((error: unknown) => {
          // The item is no longer listed; what is left on disk is an unlisted file, as after a crash.
          if (!(error instanceof PathEscapeError)) throw fsFailure(error, item.relativePath);
        });
        return sorted(items.values());
      });
    },
    async pathOf(id) {
      const item = await library.get(id);
      if (!item) throw new LibraryItemNotFoundError(`No library item ${id}.`);
      const path = await resolveReal(item.relativePath);
      await checkItemFile(path);
      return path;
    },
    markSynced(id, downloadedAt) {
      return mutating(async (items) => {
        const item = items.get(id);
        if (!item?.unsynced || item.downloadedAt !== downloadedAt) return false;
        items.set(id, withoutUnsynced(item));
        await save(items);
        return true;
      });
    },
    resolve: (relativePath) => resolveInside(root(), relativePath),
    resolveReal: (relativePath, create) => resolveReal(relativePath, create),
    peaksPathOf: (relativePath, create) => peaksPath(relativePath, create),
    async adoptPeaksBeside(path) {
      const rel = relative(await realpath(root()), path)
        .split(sep)
        .join('/');
      if (!rel || rel.startsWith('..') || isAbsolute(rel)) return false;
      return movePeaksIn(path, rel);
    },
    planPath: libraryRelativePath,
    itemId,
    reconcile() {
      return mutating(async (items) => {
        const dropped: LibraryItem[] = migrationDropped;
        migrationDropped = [];
        const doomed: string[] = [];
        let changed = false;
        for (const listed of [...items.values()]) {
          // A script's text an older version kept in the project folder moves to the sidecar folder first.
          const item = await moveToSidecarFolder(items, listed);
          if (item !== listed) changed = true;
          let path: string;
          try {
            path = await resolveReal(item.relativePath);
          } catch {
            dropped.push(item);
            items.delete(item.id);
            continue;
          }
          if (!(await exists(path))) {
            dropped.push(item);
            items.delete(item.id);
            continue;
          }
          let next = item;
          if (item.unsynced) {
            const verdict = await verifyUnsynced(path, item);
            if (verdict === 'bad') {
              // A final name on a short or damaged file breaks the library's promise: the user downloads it again.
              doomed.push(item.relativePath);
              dropped.push(item);
              items.delete(item.id);
              continue;
            }
            if (verdict === 'good') next = withoutUnsynced(item);
          }
          // Peaks an older version wrote beside the file move into the sidecar folder (issue 26 item 8).
          await movePeaksIn(path, item.relativePath);
          const hasPeaks = await peaksExist(item.relativePath);
          if (hasPeaks !== next.hasPeaks) next = { ...next, hasPeaks };
          if (next !== item) {
            items.set(item.id, next);
            changed = true;
          }
        }
        if (dropped.length > 0 || changed) await save(items);
        // Files go after the manifest no longer lists them.
        for (const rel of doomed) await deleteFiles(items, rel).catch(() => undefined);
        return dropped;
      });
    },
  };

  /**
   * Whether a file already at the final name (that no other item owns) may stand for this download: only a regular
   * file that holds the same bytes (the same inode as the part, or the same size and sha256: a crash
   * after the rename, before the listing). An empty one is the reservation of a commit without hard links that a
   * crash interrupted: it is replaced. Otherwise the caller tries the next name.
   */
  async function takeOver(path: string, part: string, item: LibraryItem): Promise<boolean> {
    const st = await lstat(path).catch(() => null);
    if (!st?.isFile()) return false;
    const partSt = await lstat(part).catch(() => null);
    if (partSt && sameFile(st, partSt)) {
      await rm(part, { force: true });
      return true;
    }
    if (st.size === 0 && item.size > 0) {
      await rm(path, { force: true });
      await placeNoReplace(part, path, { link: deps.link });
      return true;
    }
    if (st.size !== item.size || item.sha256 === '') return false;
    if ((await sha256Of(path).catch(() => null)) !== item.sha256) return false;
    await rm(part, { force: true });
    return true;
  }

  return library;
}

/** A file-system failure in a few plain words, with its code (EACCES, EROFS, EISDIR...). */
function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'the disk is read-only',
    ENOSPC: 'the disk is full',
    EISDIR: 'a folder is in the way',
    ENOTDIR: 'a file is in the way of a folder',
  };
  return code
    ? `${words[code] ?? 'the file system refused'}, ${code}`
    : String((error as Error)?.message ?? error);
}

function resolveRoot(dir: string): string {
  if (!dir) throw new Error('The library folder is not set.');
  return resolvePath(dir);
}
