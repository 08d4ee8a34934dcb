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
  version: number;
  format: MediaFormat;
}

/** `<project title> (<id8>)/<service>-<name>-v<n>.<ext>`, every component sanitised; always '/'-separated. */
export function libraryRelativePath(parts: LibraryPathParts): string {
  const id8 = sanitizeName(parts.projectId.replace(/-/gu, ''), 8, 'project');
  const folder = `${sanitizeName(parts.projectTitle, 96, 'Untitled project')} (${id8})`;
  const service = sanitizeName(parts.serviceSubCategory, 32, 'file');
  const name = sanitizeName(parts.deliverableName, 80, 'deliverable');
  const version = Number.isSafeInteger(parts.version) && parts.version > 0 ? parts.version : 1;
  // Each piece is already safe and short, so joining them cannot form '..', a device name or an over-long name.
  return `${folder}/${service}-${name}-v${version}.${parts.format}`;
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
