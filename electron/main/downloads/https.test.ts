import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DownloadJob } from '../../../shared/ipc';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import {
  call,
  requestWithCa,
  voiceOverBody,
  audioAdsBody,
  type Loose,
} from '../../sandbox/test-support/test-helpers';
import { generateSandboxTls } from '../../sandbox/tls';
import { createLibrary } from '../library/library';
import { createDownloads, type Downloads, type DownloadsDeps, type ResolvedDownload } from './queue';
import { leanHttpGet, rawGet, UntrustedCertificateError } from './lean-http';
import { createFollowThreads } from './follow-threads';
import { withRedirects, type HttpGet } from './transport';
import { createTransferThread } from './transfer-thread';
import { readRawBody } from './test-support/test-server';

// Downloads over HTTPS against the sandbox's HTTPS mode: the transport the live service's media really takes, with the
// sandbox's certificate as the only trusted authority, as the Sandbox profile has it. Real TLS, no mocks.

let sb: Sandbox;
let ca: string;
let sandboxDir: string;
let token: string;
const urls = new Map<string, { wav: string; mp3: string; project: Loose; name: string; sub: string }>();
let postId = '';
let voId = '';

const sha = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');
const projectOf = (deliverableId: string) => String(urls.get(deliverableId)?.project.id ?? 'unknown');
const served = async (url: string) => (await requestWithCa(url, ca)).body;

/** A second 127.0.0.1 server, standing in for a CDN: serves the sandbox's media files and records request headers. */
async function startCdn(
  secure: boolean,
): Promise<{ origin: string; seen: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: IncomingHttpHeaders[] = [];
  const tls = JSON.parse(await readFile(join(sandboxDir, 'sandbox-tls.json'), 'utf8')) as {
    key: string;
    cert: string;
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    seen.push(req.headers);
    const file = join(sandboxDir, 'media', basename(new URL(req.url ?? '/', 'http://x').pathname));
    stat(file).then(
      (info) => {
        res.writeHead(200, { 'content-length': info.size, 'content-type': 'application/octet-stream' });
        createReadStream(file).pipe(res);
      },
      () => res.writeHead(404).end(),
    );
  };
  // The same certificate as the sandbox (both on 127.0.0.1), so the profile's one trusted authority covers it.
  const server: Server | HttpServer = secure
    ? createHttpsServer({ key: tls.key, cert: tls.cert }, handler)
    : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${secure ? 'https' : 'http'}://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  sandboxDir = await mkdtemp(join(tmpdir(), 'takedesk-https-sandbox-'));
  sb = await createSandbox({ https: true, delivery: 'manual', dataDir: sandboxDir });
  ca = sb.certificate!;
  token = sb.tokens.full;
  const vo = (await call(sb, 'POST', '/projects', { token, body: voiceOverBody() })).body as Loose;
  const ads = (await call(sb, 'POST', '/projects', { token, body: audioAdsBody() })).body as Loose;
  await sb.deliverNow();
  for (const project of [vo, ads]) {
    for (const d of (await call(sb, 'GET', `/deliverables/project/${project.id}`, { token }))
      .body as Loose[]) {
      urls.set(d.id, { ...d.urls, project, name: d.name, sub: d.serviceSubCategory });
      if (d.serviceSubCategory === 'post-production') postId = d.id;
      if (project === vo && !voId) voId = d.id;
    }
  }
}, 120_000);
afterAll(async () => {
  await sb.close();
  await rm(sandboxDir, { recursive: true, force: true });
});

let dir: string;
const closers: Array<{ close(): Promise<void> }> = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'takedesk-https-'));
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
  await call(sb, 'DELETE', '/_sandbox/faults', { token });
  await rm(dir, { recursive: true, force: true });
});

function manager(over: Partial<DownloadsDeps> & { resolved?: Partial<ResolvedDownload> } = {}) {
  const library = createLibrary({ dir: () => join(dir, 'Library') });
  const { resolved, ...deps } = over;
  const downloads = createDownloads({
    library,
    resolve: async ({ deliverableId, format }) => {
      const known = urls.get(deliverableId)!;
      return {
        url: known[format as 'wav' | 'mp3'],
        ca,
        projectId: known.project.id,
        projectTitle: known.project.title,
        serviceSubCategory: known.sub,
        deliverableName: known.name,
        version: 1,
        orderedSeconds: null,
        ...resolved,
      };
    },
    emit: () => undefined,
    stateFile: join(dir, 'downloads.json'),
    concurrency: () => 2,
    retry: { attempts: 5, baseDelayMs: 5, maxDelayMs: 20 },
    ...deps,
  });
  closers.push(downloads);
  return { library, downloads };
}

/** The app's wiring: follow workers that analyse, and a transfer worker on their shared slots. */
function appTransport() {
  const follow = createFollowThreads({ analyze: true });
  const transfers = createTransferThread({ slots: follow.readBuffers });
  closers.push(transfers, follow);
  return { follow, http: withRedirects(transfers) };
}

async function finished(downloads: { list(): Promise<DownloadJob[]> }, id: string): Promise<DownloadJob> {
  for (let i = 0; i < 3000; i++) {
    const job = (await downloads.list()).find((j) => j.id === id);
    if (job && (job.state === 'done' || job.state === 'failed')) return job;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`job ${id} did not finish`);
}

/** Starts the deliverable's download in `format` and waits until it is done or failed. */
async function download(
  downloads: Pick<Downloads, 'start' | 'list'>,
  deliverableId: string,
  format: 'wav' | 'mp3',
) {
  return finished(
    downloads,
    (await downloads.start({ deliverableId, projectId: projectOf(deliverableId), format })).id,
  );
}

const fileOf = (job: DownloadJob) => join(dir, 'Library', ...job.relativePath.split('/'));

describe('trust: the sandbox certificate, and only it', () => {
  it('with the certificate as its CA the lean reader gets the bytes over TLS; without it the server is refused', async () => {
    const url = urls.get(voId)!.wav;
    const read = async (init: { ca?: string }) => {
      const response = await rawGet(url, { headers: {}, signal: new AbortController().signal, ...init });
      return { response, bytes: await readRawBody(response) };
    };
    const { response, bytes } = await read({ ca });
    expect(response.status).toBe(200);
    expect(sha(bytes)).toBe(sha(await served(url)));
    await expect(read({})).rejects.toThrow(UntrustedCertificateError);
    await expect(read({})).rejects.toThrow(/certificate is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT/);
  });

  it('a server with another self-signed certificate for 127.0.0.1 is refused even with the sandbox certificate', async () => {
    const other = await generateSandboxTls();
    const server = createHttpsServer(other, (_req, res) => res.end('not the sandbox'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/media/x.wav`;
    const error = await leanHttpGet(url, { headers: {}, signal: new AbortController().signal, ca }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UntrustedCertificateError);
  });

  it('a download without the certificate fails at once with a clear certificate error, through the worker', async () => {
    const { follow, http } = appTransport();
    let requests = 0;
    const counting: HttpGet = (u, init) => {
      requests++;
      return http(u, init);
    };
    const { downloads } = manager({ follow, fetchImpl: counting, resolved: { ca: undefined } });
    const job = await download(downloads, voId, 'wav');
    expect(job.state).toBe('failed');
    expect(job.error?.type).toBe('NETWORK');
    expect(job.error?.message).toMatch(/certificate is not trusted/);
    expect(requests).toBe(1); // not retried: the same certificate would be refused again
  });
});

describe('downloads over HTTPS', () => {
  it('wav and mp3 through the transfer worker land identical, with streamed checksums and analysis', async () => {
    const { follow, http } = appTransport();
    const { downloads, library } = manager({ follow, fetchImpl: http });
    const jobs = [
      await downloads.start({ deliverableId: postId, projectId: projectOf(postId), format: 'wav' }),
      await downloads.start({ deliverableId: voId, projectId: projectOf(voId), format: 'mp3' }),
    ];
    for (const started of jobs) {
      const job = await finished(downloads, started.id);
      expect([job.state, job.error]).toEqual(['done', null]);
      const expected = sha(await served(urls.get(job.deliverableId)![job.format as 'wav' | 'mp3']));
      expect(sha(await readFile(fileOf(job)))).toBe(expected);
      const item = (await library.get(job.libraryId!))!;
      expect(item.sha256).toBe(expected);
      expect(item.analysis?.integratedLufs).toEqual(expect.any(Number));
    }
  }, 60_000);

  it('cuts at seeded random offsets resume with Range + If-Range over TLS to identical bytes', async () => {
    const { follow, http } = appTransport();
    const url = urls.get(postId)!.wav;
    const whole = await served(url);
    let seed = 20_261_123;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 5; round++) {
      const cutAt = 1 + Math.floor(random() * (whole.length - 2));
      await call(sb, 'POST', '/_sandbox/faults', {
        token,
        body: { resetAfterBytes: cutAt, pathPrefix: '/media/' },
      });
      let cut = false;
      const cutOnce: HttpGet = async (u, init) => {
        // The first request is cut by the sandbox; the resume goes through whole.
        if (cut) await call(sb, 'DELETE', '/_sandbox/faults', { token });
        cut = true;
        return http(u, init);
      };
      const { downloads } = manager({ follow, fetchImpl: cutOnce });
      const job = await download(downloads, postId, 'wav');
      expect([job.state, job.error], `cut at ${cutAt}`).toEqual(['done', null]);
      expect(sha(await readFile(fileOf(job)))).toBe(sha(whole));
      await downloads.close();
      await rm(join(dir, 'Library'), { recursive: true, force: true });
      await rm(join(dir, 'downloads.json'), { force: true });
    }
  }, 120_000);
});

describe('media redirects to another host', () => {
  /** Downloads through the app's transport while the sandbox redirects media to a CDN of its own. */
  async function downloadRedirected(
    cdnOptions: { secure: boolean },
    deliverableId: string,
    format: 'wav' | 'mp3',
  ) {
    const cdn = await startCdn(cdnOptions.secure);
    closers.push(cdn);
    await call(sb, 'POST', '/_sandbox/faults', { token, body: { mediaRedirect: cdn.origin } });
    const { follow, http } = appTransport();
    const { downloads } = manager({
      follow,
      fetchImpl: http,
      resolved: { headers: { 'x-access-token': token } },
    });
    return { cdn, job: await download(downloads, deliverableId, format) };
  }

  it('are followed to the CDN, which never sees the access token', async () => {
    const whole = await served(urls.get(postId)!.wav); // also makes the sandbox generate the file the CDN serves
    const { cdn, job } = await downloadRedirected({ secure: true }, postId, 'wav');
    expect([job.state, job.error]).toEqual(['done', null]);
    expect(sha(await readFile(fileOf(job)))).toBe(sha(whole));
    expect(cdn.seen.length).toBeGreaterThan(0);
    for (const headers of cdn.seen) {
      expect(headers['x-access-token']).toBeUndefined();
      expect(headers.authorization).toBeUndefined();
    }
  }, 60_000);

  it('from HTTPS to plain HTTP are refused, and the plain host is never asked', async () => {
    const { cdn, job } = await downloadRedirected({ secure: false }, voId, 'mp3');
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/Refused a redirect from HTTPS to http:/);
    expect(cdn.seen).toEqual([]);
  });

  it('stop after a bounded number of hops', async () => {
    let hops = 0;
    const loop: HttpGet = async (u) => {
      hops++;
      return {
        status: 302,
        headers: { location: u },
        discard: () => undefined,
        pump: () => Promise.reject(new Error('unused')),
      };
    };
    await expect(
      withRedirects(loop, 3)(urls.get(voId)!.wav, { headers: {}, signal: new AbortController().signal }),
    ).rejects.toThrow(/More than 3 redirects/);
    expect(hops).toBe(4);
  });
});
