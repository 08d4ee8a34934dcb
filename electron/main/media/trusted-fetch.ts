import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { streamGet, withRedirects } from '../downloads';

/**
 * A `fetch` for the media route that trusts what the active profile trusts: `ca()` names the certificate
 * authorities (the sandbox's certificate in HTTPS mode) or undefined for the system's. The global fetch cannot take
 * a CA per request, and trusting the sandbox globally is what this avoids. Redirects are followed as downloads
 * follow them (credentials stay with their origin, no HTTPS-to-HTTP hop).
 */
export function trustedFetch(ca: () => Promise<string | undefined>): typeof fetch {
  const get = withRedirects(streamGet);
  const trustedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const trust = await ca();
    const response = await get(url, {
      headers,
      signal: init?.signal ?? new AbortController().signal,
      ...(trust ? { ca: trust } : {}),
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(response.headers))
      if (value !== undefined) out.set(name, value);
    const bodyless = init?.method === 'HEAD' || response.status === 204 || response.status === 304;
    if (bodyless) response.body.destroy();
    const body = bodyless ? null : (Readable.toWeb(response.body) as ReadableStream<Uint8Array>);
    return new Response(body as globalThis.ReadableStream<Uint8Array> | null, {
      status: response.status,
      headers: out,
    });
  };
  return trustedFetch as typeof fetch;
}
