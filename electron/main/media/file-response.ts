import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';

export interface FileResponseOptions {
  contentType: string;
  /** Strong validator; defaults to size + mtime. */
  etag?: string;
  /** Suggested download name (Content-Disposition). */
  fileName?: string;
  cacheControl?: string;
}

/**
 * A file as a web Response with single-range support (RFC 9110 §14): 200, 206 or 416, HEAD, If-None-Match and
 * If-Range. One implementation serves the sandbox's media, browser mode's media route and Electron's protocol.
 */
export async function fileResponse(
  request: Request,
  path: string,
  options: FileResponseOptions,
): Promise<Response> {
  let size: number;
  let mtimeMs: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) return new Response('Not found', { status: 404 });
    size = info.size;
    mtimeMs = info.mtimeMs;
  } catch {
    return new Response('Not found', { status: 404 });
  }
  const etag = options.etag ?? `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
  const headers = new Headers({
    'Content-Type': options.contentType,
    'Accept-Ranges': 'bytes',
    ETag: etag,
    'Cache-Control': options.cacheControl ?? 'no-cache',
  });
  if (options.fileName) {
    headers.set('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(options.fileName)}`);
  }
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });

  let range = parseRange(request.headers.get('range'), size);
  const ifRange = request.headers.get('if-range');
  if (range && ifRange && ifRange !== etag) range = null;
  if (range === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const [start, end] = range ?? [0, size - 1];
  const length = size === 0 ? 0 : end - start + 1;
  headers.set('Content-Length', String(length));
  if (range) headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
  const status = range ? 206 : 200;
  if (request.method === 'HEAD' || length === 0) return new Response(null, { status, headers });
  const stream = createReadStream(path, { start, end, highWaterMark: 1 << 20 });
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status, headers });
}

/**
 * Parses a `Range: bytes=` header into an inclusive [start, end]. Multiple ranges are served as the whole file
 * (allowed by the RFC); a syntactically bad header is ignored; a range past the end is unsatisfiable.
 */
export function parseRange(header: string | null, size: number): [number, number] | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(first);
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return null;
  return [start, end];
}
