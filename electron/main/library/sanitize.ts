import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { MediaFormat } from '../../../shared/ipc';

/** Longest name component we produce, in UTF-8 bytes: under every common file system's 255-byte limit. */
export const MAX_NAME_BYTES = 120;

// C0/C1 controls and DEL; bidi embeddings, overrides, isolates and marks (they make "evil\u202Egnp.exe" look like
// "evilexe.png"); zero-width characters and the BOM.
/* eslint-disable no-control-regex -- matching control characters is the point */
const CONTROL_OR_INVISIBLE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/gu;
/* eslint-enable no-control-regex */
// Separators and the characters Windows refuses in names (https://learn.microsoft.com/windows/win32/fileio/naming-a-file).
const FORBIDDEN = /[<>:"/\\|?*]/gu;
// Windows reserves these device names with any extension, in any case; the superscript digits count too.
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/iu;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const encoder = new TextEncoder();

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character or a grapheme (emoji, accents). */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (encoder.encode(text).length <= maxBytes) return text;
  let out = '';
  let bytes = 0;
  for (const { segment } of segmenter.segment(text)) {
    const size = encoder.encode(segment).length;
    if (bytes + size > maxBytes) break;
    out += segment;
    bytes += size;
  }
  return out;
}

function trimEdges(text: string): string {
  // Leading dots hide files (and make '..'); trailing dots and spaces are silently dropped by Windows.
  return text.replace(/^[\s.]+/u, '').replace(/[\s.]+$/u, '');
}

/**
 * Turns text from the service into one safe file-name component: never empty, never '.', '..', a separator, a
 * control or bidi character, a reserved Windows device name, a leading dot or a trailing dot/space, and at most
 * `maxBytes` UTF-8 bytes.
 */
export function sanitizeName(input: string, maxBytes = MAX_NAME_BYTES, fallback = 'untitled'): string {
  let name = input.normalize('NFC').replace(CONTROL_OR_INVISIBLE, '').replace(FORBIDDEN, '_');
  name = name.replace(/\s+/gu, ' ').replace(/\.{2,}/gu, '.');
  name = trimEdges(name);
  const stem = name.split('.')[0] ?? '';
  if (RESERVED.test(stem.trim())) name = `_${name}`;
  name = trimEdges(truncateUtf8(name, maxBytes));
  return name === '' ? fallback : name;
}

/** What the layout needs to name a deliverable's file. */
export interface LibraryPathParts {
  projectId: string;
  projectTitle: string;
  serviceSubCategory: string;
  deliverableName: string;
  /** Makes the name unique per deliverable: two deliverables never share a path, whatever their names. */
  deliverableId: string;
  version: number;
  format: MediaFormat;
}

/**
 * Eight safe characters that stand for an id: the first 8 hex digits of a UUID (lower case), otherwise the first 8
 * hex digits of the id's sha256 (an id that is not a UUID may hold anything, and ids that sanitise alike must not
 * meet).
 */
export function shortId(id: string): string {
  const hex = id.replace(/-/gu, '').toLowerCase();
  if (/^[0-9a-f]{8,}$/u.test(hex) && /^[0-9a-f-]+$/iu.test(id)) return hex.slice(0, 8);
  return createHash('sha256').update(id).digest('hex').slice(0, 8);
}

/**
 * The library's hidden folder for what is not a deliverable to hand over: waveform peaks and the script text
 * (`.txt`, what the review screen reads along), mirroring the project folders.
 */
export const SIDECAR_FOLDER = '.takedesk/sidecars';

/** Formats kept in the sidecar folder rather than in the project folder. */
export const SIDECAR_FORMATS: ReadonlySet<string> = new Set(['txt']);

/**
 * `<project title> (<id8>)/<service>-<name>-<deliverable id8>-v<n>.<ext>`, every component sanitised; always
 * '/'-separated. The deliverable's short id keeps two deliverables apart even when their names sanitise alike
 * (a rejected deliverable and its replacement share a name). A script's text goes under the sidecar folder.
 */
export function libraryRelativePath(parts: LibraryPathParts): string {
  const id8 = sanitizeName(parts.projectId.replace(/-/gu, ''), 8, 'project');
  const folder = `${sanitizeName(parts.projectTitle, 96, 'Untitled project')} (${id8})`;
  const service = sanitizeName(parts.serviceSubCategory, 32, 'file');
  const name = sanitizeName(parts.deliverableName, 80, 'deliverable');
  const version = Number.isSafeInteger(parts.version) && parts.version > 0 ? parts.version : 1;
  // Each piece is already safe and short, so joining them cannot form '..', a device name or an over-long name.
  const path = `${folder}/${service}-${name}-${shortId(parts.deliverableId)}-v${version}.${parts.format}`;
  return SIDECAR_FORMATS.has(parts.format) ? `${SIDECAR_FOLDER}/${path}` : path;
}

/** The n-th (n >= 2) name to try when `relativePath` is taken: `name (n).ext`, beside it. */
export function withCollisionSuffix(relativePath: string, n: number): string {
  if (n < 2) return relativePath;
  const slash = relativePath.lastIndexOf('/');
  const dot = relativePath.lastIndexOf('.');
  if (dot <= slash + 1) return `${relativePath} (${n})`;
  return `${relativePath.slice(0, dot)} (${n})${relativePath.slice(dot)}`;
}

/**
 * The `.part` file of one download job, beside its planned name and keyed by the job, so two jobs never share one;
 * it ends in `.part`, so it is never taken for a final name.
 */
export function partPathFor(relativePath: string, jobId: string): string {
  const hex = jobId.replace(/-/gu, '').toLowerCase();
  const key = /^[0-9a-f]{8,32}$/u.test(hex)
    ? hex
    : createHash('sha256').update(jobId).digest('hex').slice(0, 32);
  return `${relativePath}.${key}.part`;
}

/** Thrown when a path would leave the library folder. */
export class PathEscapeError extends Error {
  override name = 'PathEscapeError';
}

/**
 * Joins a '/'-separated relative path to `root` and proves the result stays strictly inside it; throws
 * PathEscapeError otherwise. Every path we open under the library goes through here.
 */
export function resolveInside(root: string, relativePath: string): string {
  const base = resolve(root);
  // Backslashes are separators on Windows; our own paths never contain one.
  if (isAbsolute(relativePath) || /^[a-z]:/iu.test(relativePath) || relativePath.includes('\\')) {
    throw new PathEscapeError(
      `Refusing an absolute path inside the library: ${JSON.stringify(relativePath)}`,
    );
  }
  const target = resolve(base, ...relativePath.split('/'));
  const rel = relative(base, target);
  if (
    rel === '' ||
    rel === '..' ||
    rel.startsWith(`..${sep}`) ||
    isAbsolute(rel) ||
    relativePath.includes('\0')
  ) {
    throw new PathEscapeError(`Path leaves the library: ${JSON.stringify(relativePath)}`);
  }
  return target;
}
