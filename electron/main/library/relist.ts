/** Listing again, from their names, the files of the library folder that a damaged manifest lost. */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { LibraryItem, MediaFormat } from '../../../shared/ipc';
import { exists } from './file-facts';
import {
  FILE_NAME,
  itemId,
  META_DIR,
  ownerOf,
  PROJECT_FOLDER,
  SIDECAR_DIR,
  type LibraryPaths,
} from './paths';
import { SIDECAR_FORMATS } from './sanitize';

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

/**
 * Lists again the files of the library folder a damaged manifest lost, from their names
 * (`<project title> (<id8>)/<service>-<name>-<deliverable id8>-v<n>.<ext>`). Names carry only the short ids: the
 * download that made the file gives the full ones when the queue still has it; otherwise the short ids stand for
 * them. Checksum and analysis are unknown until the file is analysed again.
 */
export async function relistFromDisk(
  dir: string,
  items: Map<string, LibraryItem>,
  paths: LibraryPaths,
  knownFiles?: () => Promise<Map<string, KnownFile>>,
): Promise<number> {
  let added = 0;
  const known = (await knownFiles?.().catch(() => null)) ?? new Map<string, KnownFile>();
  // The project folders, then the sidecar folder, where only the formats kept there are listed.
  for (const prefix of ['', `${SIDECAR_DIR}/`]) {
    added += await relistFolders(dir, prefix, items, known, paths);
  }
  return added;
}

async function relistFolders(
  dir: string,
  prefix: string,
  items: Map<string, LibraryItem>,
  known: Map<string, KnownFile>,
  paths: LibraryPaths,
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
        hasPeaks: (await paths.peaksExist(relativePath)) || (await exists(`${path}.peaks`)),
        ...known.get(relativePath),
      };
      if (items.has(item.id)) continue;
      items.set(item.id, item);
      added++;
    }
  }
  return added;
}
