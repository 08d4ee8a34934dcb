// The media route: no token (the keys are unguessable content hashes), the ranged file answer written straight to
// the socket, the first stream of a music track's mp3, and the faults that redirect, delay or cut a download.
import type { Context, Hono } from 'hono';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { answerResponse, fileAnswer, sendAnswer } from '../../http/file-response';
import { errorResponse, sleep } from './answers';
import type { AppDeps, Env } from './deps';

export function mediaRoute(app: Hono<Env>, deps: AppDeps): void {
  const { faults, services } = deps;

  // --- media: no token, the keys are unguessable content hashes ------------------------------
  app.get('/media/:file', async (c) => {
    const match = /^([A-Za-z0-9_-]+)\.(wav|mp3|pdf)$/.exec(c.req.param('file'));
    const key = match?.[1];
    const desc = key ? services.media.describe(key) : undefined;
    if (!match || !key || !desc || desc.format !== match[2])
      return errorResponse('NOT_FOUND', undefined, 'No such media file.');
    const redirect = faults.redirectFor(c.req.path);
    if (redirect) return c.redirect(redirect, 302);
    const latency = faults.latencyFor(c.req.path);
    if (latency > 0) await sleep(latency);
    const cutAfter = faults.resetAfterFor(c.req.path);
    // The first request of a music track's mp3 streams it as it is encoded (no length, no ranges yet: its preview
    // starts at once); the next ones get the finished file with ranges.
    const live =
      c.req.method === 'GET' && cutAfter === undefined ? await services.media.streamFirst?.(desc) : undefined;
    if (live)
      return new Response(live, { headers: { 'content-type': 'audio/mpeg', 'cache-control': 'no-store' } });
    const file = await services.media.ensure(desc);
    const answer = await fileAnswer(c.req.raw, file.path, {
      contentType: file.contentType,
      etag: file.etag,
      fileName: `${key}.${match[2]}`,
    });
    // On a node:http server the file goes straight to the socket (the app also answers in-process requests).
    if (cutAfter === undefined && c.env?.outgoing) {
      sendAnswer(answer, c.env.outgoing);
      return RESPONSE_ALREADY_SENT;
    }
    const response = answerResponse(answer);
    if (cutAfter === undefined || !response.body) return response;
    return cutResponse(c, response, cutAfter);
  });
}

/** Sends the first `limit` bytes of a response, then destroys the socket (fault: connection reset). */
async function cutResponse(c: Context<Env>, response: Response, limit: number): Promise<Response> {
  const out = c.env.outgoing;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  out.writeHead(response.status, headers);
  const reader = response.body!.getReader();
  let sent = 0;
  try {
    while (sent < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = value.subarray(0, limit - sent);
      sent += chunk.length;
      await new Promise<void>((resolve) => out.write(chunk, () => resolve()));
    }
  } finally {
    await reader.cancel().catch(() => {});
    out.socket?.destroy();
  }
  return RESPONSE_ALREADY_SENT;
}
