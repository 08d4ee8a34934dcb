import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import type { MediaUrl } from '../../../shared/ipc';
import { localError } from '../kernel/local-error';
import { fileResponse } from '../../http/file-response';

/** Where the media route finds bytes: a library file by id, or a proxied service URL by its opaque token. */
export interface MediaResolver {
  library(id: string, request: Request): Promise<Response>;
  remote(token: string, request: Request): Promise<Response>;
}

/** How the current transport spells media URLs (`takedesk-media://library/<id>` or `/media/library/<id>`). */
export interface MediaUrlScheme {
  library(id: string): string;
  remote(token: string): string;
}

export interface LibraryFiles {
  /** Absolute path of a library item's file, or null when unknown or gone. */
  pathOf(id: string): Promise<string | null>;
}

export interface MediaRegistry extends MediaResolver {
  /** Records every media URL found in a service answer: only those may be proxied later. */
  remember(value: unknown): void;
  remoteUrl(url: string): MediaUrl;
  libraryUrl(id: string): MediaUrl;
}

const MEDIA_KEYS = new Set(['url', 'wav', 'mp3', 'pdf']);
const MAX_REMEMBERED = 20_000;
const PASS_REQUEST = ['range', 'if-range', 'if-none-match', 'if-modified-since'];
const PASS_RESPONSE = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'etag',
  'last-modified',
];

export function contentTypeFor(name: string): string {
  switch (extname(new URL(name, 'file:///').pathname).toLowerCase()) {
    case '.wav':
      return 'audio/wav';
    case '.mp3':
      return 'audio/mpeg';
    case '.pdf':
      return 'application/pdf';
    case '.txt':
      return 'text/plain; charset=utf-8';
    default:
      return 'application/octet-stream';
  }
}

/**
 * The one media route behind both transports. The renderer never fetches the service: it gets an opaque URL for
 * a media link main has seen in a service answer (so it cannot turn main into a proxy for arbitrary URLs), or for
 * a library file; both are served with Range support so wavesurfer.js streams through an <audio> element.
 */
export function createMediaRegistry(deps: {
  scheme: MediaUrlScheme;
  library: LibraryFiles;
  fetchImpl?: typeof fetch;
}): MediaRegistry {
  const byUrl = new Map<string, string>();
  const byToken = new Map<string, string>();
  const doFetch = deps.fetchImpl ?? fetch;

  const add = (url: string) => {
    if (byUrl.has(url)) return;
    if (byUrl.size >= MAX_REMEMBERED) {
      const [oldestUrl, oldestToken] = byUrl.entries().next().value as [string, string];
      byUrl.delete(oldestUrl);
      byToken.delete(oldestToken);
    }
    const token = randomBytes(12).toString('base64url');
    byUrl.set(url, token);
    byToken.set(token, url);
  };

  const walk = (value: unknown, key: string | null, depth: number) => {
    if (depth > 8 || value === null) return;
    if (typeof value === 'string') {
      if (key !== null && MEDIA_KEYS.has(key) && /^https?:\/\//i.test(value)) add(value);
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) walk(item, key, depth + 1);
      return;
    }
    if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) walk(v, k, depth + 1);
    }
  };

  return {
    remember: (value) => walk(value, null, 0),

    remoteUrl(url) {
      const token = byUrl.get(url);
      if (!token) {
        throw localError('MEDIA_NOT_ALLOWED', 'This media link did not come from the service.');
      }
      return { url: deps.scheme.remote(token), contentType: contentTypeFor(url) };
    },

    libraryUrl(id) {
      return { url: deps.scheme.library(id), contentType: 'application/octet-stream' };
    },

    async library(id, request) {
      let path: string | null;
      try {
        path = await deps.library.pathOf(id);
      } catch (error) {
        // A link or a folder in place of the item's file: refused in words, nothing read through it.
        const type = (error as { type?: unknown }).type;
        const status = type === 'LINK_REFUSED' ? 403 : 404;
        return new Response(error instanceof Error ? error.message : 'Not in the library', {
          status,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        });
      }
      if (!path) return new Response('Not in the library', { status: 404 });
      // Opened without following a link: one put in place after the check above is refused too.
      return fileResponse(request, path, { contentType: contentTypeFor(path), noFollow: true });
    },

    async remote(token, request) {
      const url = byToken.get(token);
      if (!url) return new Response('Unknown media', { status: 404 });
      const headers = new Headers();
      for (const name of PASS_REQUEST) {
        const value = request.headers.get(name);
        if (value) headers.set(name, value);
      }
      let upstream: Response;
      try {
        // No token is sent: media links are the service's own (signed) URLs.
        upstream = await doFetch(url, {
          method: request.method === 'HEAD' ? 'HEAD' : 'GET',
          headers,
          redirect: 'follow',
        });
      } catch {
        return new Response('The service is unreachable', { status: 502 });
      }
      const out = new Headers({ 'Cache-Control': 'no-cache' });
      for (const name of PASS_RESPONSE) {
        const value = upstream.headers.get(name);
        if (value) out.set(name, value);
      }
      if (!out.has('content-type')) out.set('content-type', contentTypeFor(url));
      return new Response(request.method === 'HEAD' ? null : upstream.body, {
        status: upstream.status,
        headers: out,
      });
    },
  };
}
