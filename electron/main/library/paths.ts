/**
 * Where things are in the library: the bookkeeping and sidecar folders, item ids, the names files get, which item
 * owns a path, and every path resolved through links and proven to stay inside the library's real folder.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, realpath, rename } from 'node:fs/promises';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import { MEDIA_FORMATS, type LibraryItem, type MediaFormat } from '../../../shared/ipc';
import { exists, within } from './file-facts';
import { PathEscapeError, resolveInside, SIDECAR_FOLDER } from './sanitize';

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

/** Items whose paths may name one file (same text up to case and Unicode form: one file on macOS and Windows). */
export const pathKey = (relativePath: string) => relativePath.normalize('NFC').toLowerCase();

/** An item's id: one per deliverable, version and format. */
export function itemId(deliverableId: string, version: number, format: MediaFormat): string {
  return createHash('sha256').update(`${deliverableId}\0${version}\0${format}`).digest('hex').slice(0, 24);
}

/** `<project title> (<id8>)`: a project's folder. */
export const PROJECT_FOLDER = /^(.+) \(([0-9a-f]{8})\)$/u;
/** `<service>-<name>-<deliverable id8>-v<n>[ (k)].<ext>`: a file libraryRelativePath named. */
export const FILE_NAME = new RegExp(
  `^([^-]+)-(.+)-([0-9a-f]{8})-v(\\d+)(?: \\(\\d+\\))?\\.(${MEDIA_FORMATS.join('|')})$`,
  'u',
);

/** The item other than `exceptId` whose path may name the same file as `relativePath`; null when none. */
export function ownerOf(
  items: Map<string, LibraryItem>,
  relativePath: string,
  exceptId?: string,
): LibraryItem | null {
  const key = pathKey(relativePath);
  for (const item of items.values()) {
    if (item.id !== exceptId && pathKey(item.relativePath) === key) return item;
  }
  return null;
}

/** The library's folder and its paths, resolved through links and proven inside it. */
export type LibraryPaths = ReturnType<typeof createPaths>;

/** Paths of the library folder `dir()` (a setting, read each time). */
export function createPaths(dir: () => string) {
  const root = () => resolveRoot(dir());

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

  return { root, resolveReal, peaksPath, peaksExist, movePeaksIn };
}

function resolveRoot(dir: string): string {
  if (!dir) throw new Error('The library folder is not set.');
  return resolvePath(dir);
}
