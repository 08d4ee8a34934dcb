import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../fixtures';
import { openDeliveredReview } from '../support/open-review';
import { uniqueTitle } from '../support/setup';

/** node:http, so the replay can carry the Host, Origin and Cookie headers a browser's fetch would not let it set. */
function replay(url: string, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Issue 24, item 4: cookies are not scoped by port, so a cookie holding browser mode's secret went to any other
 * local page in the same browser, which could replay it. The secret now lives in the tab (URL fragment, then
 * sessionStorage, then a header); media URLs carry their own signed capability.
 */
test('another local page gets no secret and its replay is refused; the app tab still plays and seeks', async ({
  app,
  sandbox,
  session,
}) => {
  const secret = /#s=([\w-]+)/.exec(session.appUrl)![1]!;

  // The app tab: the secret has left the address bar, and no cookie was set.
  await expect(app.getByTestId('active-profile')).toContainText('Sandbox');
  expect(app.url()).not.toContain(secret);
  expect(await app.context().cookies()).toEqual([]);
  expect(await app.evaluate(() => document.cookie)).toBe('');

  // A take plays through its signed media URL, and seeking fetches the bytes further on with a Range.
  const media: Array<{ url: string; status: number; range: string | undefined }> = [];
  app.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/media/')) {
      media.push({
        url: response.url(),
        status: response.status(),
        range: response.request().headers().range,
      });
    }
  });
  const { review } = await openDeliveredReview(app, sandbox, session, {
    title: uniqueTitle('E2E secret'),
    parts: [
      'Fresh bread every morning, delivered warm to your door by the corner bakery.',
      'Order by nine, eat by ten. Visit us today and taste the difference.',
    ],
  });
  await review.play();
  await expect.poll(() => review.currentTime(), { timeout: 10_000 }).toBeGreaterThan(0.3);
  await review.pause();
  const duration = Number(await review.waveform.getAttribute('data-duration'));
  expect(duration).toBeGreaterThan(6);
  await review.pressKey('Home');
  await review.pressKey('Shift+ArrowRight');
  const target = 5;
  await expect.poll(() => review.currentTime()).toBeCloseTo(target, 0);
  await review.play();
  await expect.poll(() => review.currentTime(), { timeout: 10_000 }).toBeGreaterThan(target + 0.3);
  await review.pause();
  expect(media.length).toBeGreaterThan(0);
  for (const m of media) {
    expect(m.url).toMatch(/\?c=\d+\.[\w-]{43}$/);
    expect(m.status, m.url).toBeLessThan(300);
  }
  expect(media.some((m) => m.range !== undefined && m.status === 206)).toBe(true);
  const mediaPath = new URL(media[0]!.url).pathname;

  // A second local server on another port, in the same browser: it records every request the browser sends it.
  const seen: IncomingHttpHeaders[] = [];
  const appOrigin = new URL(session.appUrl).origin;
  const other = createServer((req, res) => {
    seen.push(req.headers);
    if (req.url?.includes(secret)) seen.push({ 'x-url-with-secret': req.url });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Another local page</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  try {
    const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    expect(otherOrigin).not.toBe(appOrigin);
    const page = await app.context().newPage();
    await page.goto(`${otherOrigin}/`);
    const tried = await page.evaluate(
      async ({ appOrigin, mediaPath }) => {
        // What a hostile local page can do: write blind, try to read, load the media, call itself with credentials.
        await fetch(`${appOrigin}/ipc/settings.set`, {
          method: 'POST',
          mode: 'no-cors',
          credentials: 'include',
          body: JSON.stringify({ input: { libraryDir: '/tmp/taken' } }),
        }).catch(() => undefined);
        const read = await fetch(`${appOrigin}/ipc/profiles.list`, { method: 'POST', credentials: 'include' })
          .then((r) => `status ${r.status}`)
          .catch(() => 'blocked');
        const audio = await new Promise<string>((resolve) => {
          const element = new Audio();
          element.onloadedmetadata = () => resolve('loaded');
          element.onerror = () => resolve('error');
          element.src = `${appOrigin}${mediaPath}`;
        });
        await fetch('/echo', { credentials: 'include' });
        return { read, audio, storage: sessionStorage.length, cookie: document.cookie };
      },
      { appOrigin, mediaPath },
    );
    expect(tried).toEqual({ read: 'blocked', audio: 'error', storage: 0, cookie: '' });
    await page.close();

    // Nothing the browser sent the other server carries the secret: no cookie, no header, no URL.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const headers of seen) {
      expect(headers.cookie).toBeUndefined();
      expect(JSON.stringify(headers)).not.toContain(secret);
    }

    // Its replay, with all it received and the right Origin and Host, opens neither the bridge nor the media.
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(seen.at(-1)!)) {
      if (typeof value === 'string' && name !== 'content-length') headers[name] = value;
    }
    Object.assign(headers, {
      host: new URL(appOrigin).host,
      origin: appOrigin,
      'sec-fetch-site': 'same-origin',
    });
    const write = await replay(
      `${appOrigin}/ipc/settings.set`,
      'POST',
      headers,
      JSON.stringify({ input: { libraryDir: '/tmp/taken' } }),
    );
    expect(write.status).toBe(401);
    expect(JSON.parse(write.body)).toMatchObject({ error: { type: 'BROWSER_SESSION_REQUIRED' } });
    expect((await replay(`${appOrigin}${mediaPath}`, 'GET', headers)).status).toBe(403);
  } finally {
    other.closeAllConnections();
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }

  // The library folder did not move, and the app tab still answers after a reload (the secret is in its tab).
  await app.reload();
  await review.expectLoaded();
  const settings = await app.evaluate(async (origin) => {
    const token = sessionStorage.getItem('takedesk.session') ?? '';
    const res = await fetch(`${origin}/ipc/settings.get`, {
      method: 'POST',
      headers: { 'x-takedesk-session': token, 'content-type': 'application/json' },
      body: '{}',
    });
    return (await res.json()) as { ok: boolean; value: { libraryDir: string } };
  }, appOrigin);
  expect(settings).toMatchObject({ ok: true, value: { libraryDir: session.libraryDir } });
});
