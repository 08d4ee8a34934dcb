import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchResponse, Track } from '../../shared/api';
import { CURRENCY_RATES } from './data/rates';
import type { Sandbox } from './server';
import { audioAdsBody, call, startSandbox, voiceOverBody, type Loose } from './test-support/test-helpers';

// Search, pricing, units, media (Range, ETag, cut connections), tracks and the OpenAPI document
// against the default sandbox with its real seed data and media store.

let sb: Sandbox;
let full: string;
beforeAll(async () => {
  sb = await startSandbox();
  full = sb.tokens.full;
});
afterAll(() => sb.close());

const get = (path: string) => call(sb, 'GET', path, { token: full });
const search = async (query: string) => {
  const r = await get(`/search?categoryId=voice_over&${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return SearchResponse.parse(r.body) as Loose;
};

describe('search', () => {
  it('defaults: USD, page 1, pageSize 20; at least 200 pros', async () => {
    const r = await search('');
    expect(r.page).toBe(1);
    expect(r.samples).toHaveLength(20);
    expect(r.total).toBeGreaterThanOrEqual(200);
    expect(r.totalPages).toBe(Math.ceil(r.total / 20));
    for (const s of r.samples) expect(s.currency).toBe('USD');
    expect(r.samples[0].url).toMatch(new RegExp(`^${sb.url}/media/\\w+\\.mp3$`));
  });

  it.each([
    ['language=eng-us', (s: Loose) => s.language === 'eng-us'],
    ['genderAndAge=teenageGirl', (s: Loose) => s.genderAndAge === 'teenageGirl'],
    ['turnAroundTimeDays=2', (s: Loose) => s.turnAroundTimeDays <= 2],
    ['minimumPrice=15', (s: Loose) => s.price >= 15],
    ['maximumPrice=10', (s: Loose) => s.price <= 10],
    ['purpose=elearning', (s: Loose) => s.purposes.includes('elearning')],
  ])('filter %s narrows the results and every sample matches', async (query, matches) => {
    const all = await search('pageSize=100');
    const filtered = await search(`${query}&pageSize=100`);
    expect(filtered.total).toBeGreaterThan(0);
    expect(filtered.total).toBeLessThan(all.total);
    for (const s of filtered.samples) expect(matches(s), JSON.stringify(s)).toBe(true);
  });

  it('units and unitType scale the quote (units = words; minutes at 150 wpm)', async () => {
    const a = (await search('units=100&pageSize=1')).samples[0];
    const b = (await search('units=200&pageSize=1')).samples[0];
    const c = (await search('units=1&unitType=minutes&pageSize=1')).samples[0];
    expect(b.publicId).toBe(a.publicId);
    expect(b.price).toBeCloseTo(a.price * 2, 1);
    expect(c.price).toBeCloseTo(a.price * 1.5, 1);
  });

  it.each(Object.keys(CURRENCY_RATES))('currency %s converts at the fixed rate', async (currency) => {
    const usd = (await search('pageSize=1')).samples[0];
    const other = (await search(`currency=${currency}&pageSize=1`)).samples[0];
    expect(other.currency).toBe(currency);
    expect(other.price).toBeCloseTo(usd.price * CURRENCY_RATES[currency as keyof typeof CURRENCY_RATES], 1);
  });

  it('pagination edges: pages partition the results, last page is partial, past the end is empty', async () => {
    const first = await search('pageSize=7');
    const ids = new Set<string>();
    for (let page = 1; page <= first.totalPages; page++) {
      const r = await search(`pageSize=7&page=${page}`);
      expect(r.page).toBe(page);
      expect(r.samples.length).toBe(page < first.totalPages ? 7 : first.total - 7 * (first.totalPages - 1));
      for (const s of r.samples) ids.add(s.publicId);
    }
    expect(ids.size).toBe(first.total);
    const past = await search(`pageSize=7&page=${first.totalPages + 1}`);
    expect(past.samples).toEqual([]);
    expect(past.total).toBe(first.total);
  });
});

describe('projects: prices, units, list filters', () => {
  it('voice over: units in words, or characters for Japanese; priced by the rate card; quote agrees', async () => {
    const en = await call(sb, 'POST', '/projects', { token: full, body: voiceOverBody() });
    expect(en.body.services[0]).toMatchObject({ units: 12, unitType: 'words', price: 25 });
    const script = [{ part001: 'こんにちは世界、今日は良い天気です。'.repeat(40) }];
    const ja = await call(sb, 'POST', '/projects', {
      token: full,
      body: voiceOverBody({ services: [{ ...voiceOverBody().services[0], language: 'jpn-jp', script }] }),
    });
    expect(ja.status).toBe(200);
    expect(ja.body.services[0].unitType).toBe('characters');
    expect(ja.body.services[0].units).toBe([...script[0]!.part001].length);
    expect(ja.body.price).toBeCloseTo(ja.body.services[0].units * 0.04, 2);
    const quote = await call(sb, 'POST', '/quote', {
      token: full,
      body: {
        mainService: 'voice_over',
        services: ja.body.services.map(({ subCategory, language, genderAndAge, script: s }: Loose) => ({
          subCategory,
          language,
          genderAndAge,
          script: s,
        })),
      },
    });
    expect(quote.body.price).toBe(ja.body.price);
  });

  it('audio ads: seconds for voice over and post production; contest costs more', async () => {
    const r = await call(sb, 'POST', '/projects', { token: full, body: audioAdsBody() });
    expect(r.status).toBe(200);
    const [sw, vo, post] = r.body.services;
    expect(sw).toMatchObject({
      subCategory: 'scriptwriting',
      unitType: 'words',
      voicePerspective: 'service-pro-choice',
    });
    expect(vo).toMatchObject({
      subCategory: 'voice_over',
      units: 30,
      unitType: 'seconds',
      purpose: 'radioTvAds',
    });
    expect(post).toMatchObject({
      subCategory: 'post-production',
      units: 30,
      unitType: 'seconds',
      backgroundMusic: 'audioads-music-library',
    });
    expect(r.body.price).toBe(75);
    const contest = await call(sb, 'POST', '/projects', {
      token: full,
      body: audioAdsBody({ fulfillmentType: 'contest' }),
    });
    expect(contest.body.price).toBeGreaterThan(r.body.price);
  });

  it('list: titleQuery and category filter, pagination', async () => {
    const unique = `Zebra ${Date.now()}`;
    await call(sb, 'POST', '/projects', { token: full, body: voiceOverBody({ title: unique }) });
    const byTitle = await get(`/projects?titleQuery=${encodeURIComponent(unique.toLowerCase())}`);
    expect(byTitle.body.projects.map((p: Loose) => p.title)).toEqual([unique]);
    const ads = await get('/projects?category=audio_ads&pageSize=100');
    expect(ads.body.projects.length).toBeGreaterThan(0);
    for (const p of ads.body.projects) expect(p.mainService).toBe('audio_ads');
    const page2 = await get('/projects?pageSize=1&page=2');
    expect(page2.body.page).toBe(2);
    expect(page2.body.projects).toHaveLength(1);
    expect((await get('/projects?pageSize=1&page=999')).body.projects).toEqual([]);
  });
});

describe('media', () => {
  let wavUrl: string;
  let mp3Url: string;
  let pdfUrl: string;
  beforeAll(async () => {
    const vo = await call(sb, 'POST', '/projects', { token: full, body: voiceOverBody() });
    const ads = await call(sb, 'POST', '/projects', { token: full, body: audioAdsBody() });
    await sb.deliverNow();
    const d = (await get(`/deliverables/project/${vo.body.id}`)).body[0];
    wavUrl = d.urls.wav;
    mp3Url = d.urls.mp3;
    pdfUrl = (await get(`/deliverables/project/${ads.body.id}`)).body[0].urls.pdf;
  });

  it('WAV is 48 kHz 24-bit, served without a token with Content-Length and a strong ETag', async () => {
    const r = await fetch(wavUrl);
    expect(r.status).toBe(200);
    const bytes = Buffer.from(await r.arrayBuffer());
    expect(Number(r.headers.get('content-length'))).toBe(bytes.length);
    expect(r.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(bytes.toString('ascii', 0, 4)).toBe('RIFF');
    expect(bytes.readUInt32LE(24)).toBe(48_000);
    expect(bytes.readUInt16LE(34)).toBe(24);
  });

  it('Range: 206 with Content-Range; suffix range; 416 past the end; 304 on If-None-Match; HEAD', async () => {
    const whole = Buffer.from(await (await fetch(wavUrl)).arrayBuffer());
    const r = await fetch(wavUrl, { headers: { range: 'bytes=100-199' } });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes 100-199/${whole.length}`);
    expect(Buffer.from(await r.arrayBuffer())).toEqual(whole.subarray(100, 200));
    const tail = await fetch(wavUrl, { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.subarray(whole.length - 10));
    const beyond = await fetch(wavUrl, { headers: { range: `bytes=${whole.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${whole.length}`);
    const etag = (await fetch(wavUrl, { method: 'HEAD' })).headers.get('etag')!;
    expect((await fetch(wavUrl, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const head = await fetch(wavUrl, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(whole.length);
  });

  it('MP3 and PDF are real files', async () => {
    const mp3 = Buffer.from(await (await fetch(mp3Url)).arrayBuffer());
    expect(mp3.length).toBeGreaterThan(1000);
    expect(mp3[0] === 0xff || mp3.toString('ascii', 0, 3) === 'ID3').toBe(true);
    const pdf = await fetch(pdfUrl);
    expect(pdf.headers.get('content-type')).toContain('pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).toString('ascii', 0, 5)).toBe('%PDF-');
  });

  it('unknown media keys answer 404 JSON', async () => {
    const r = await fetch(`${sb.url}/media/${'0'.repeat(32)}.wav`);
    expect(r.status).toBe(404);
    expect(((await r.json()) as Loose).type).toBe('NOT_FOUND');
  });

  it('resetAfterBytes cuts the media connection after N bytes (client sees a truncated body)', async () => {
    await call(sb, 'POST', '/_sandbox/faults', {
      token: full,
      body: { resetAfterBytes: 5000, pathPrefix: '/media/' },
    });
    try {
      const outcome = await new Promise<{ received: number; length: number; error?: string }>((resolve) => {
        request(wavUrl, (res) => {
          let received = 0;
          res.on('data', (chunk: Buffer) => (received += chunk.length));
          res.on('error', (e) =>
            resolve({ received, length: Number(res.headers['content-length']), error: e.message }),
          );
          res.on('close', () => resolve({ received, length: Number(res.headers['content-length']) }));
        }).end();
      });
      expect(outcome.received).toBe(5000);
      expect(outcome.length).toBeGreaterThan(5000);
      // API routes are not cut.
      expect((await get('/categories')).status).toBe(200);
    } finally {
      await call(sb, 'DELETE', '/_sandbox/faults', { token: full });
    }
    expect((await fetch(wavUrl)).status).toBe(200);
  });

  it('tracks have real wav and mp3 previews; sample URLs are real mp3s', async () => {
    const tracks = (await get('/tracks?typeId=mood')).body;
    expect(tracks.length).toBeGreaterThan(0);
    for (const t of tracks) expect(t.type).toBe('mood');
    const one = Track.parse((await get('/tracks/20')).body);
    expect(one.fileName).toBe('Casual1');
    const wav = Buffer.from(await (await fetch(one.url.wav)).arrayBuffer());
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    const sample = (await search('pageSize=1')).samples[0];
    const mp3 = await fetch(sample.url);
    expect(mp3.status).toBe(200);
    expect(mp3.headers.get('content-type')).toContain('audio/mpeg');
  });
});

describe('first play of a track', () => {
  it('streams an mp3 the first time, its first bytes within 1 s; the next request gets the same file with ranges', async () => {
    // A media folder of its own: the track's mp3 is made on this request (about 5 s for 30 s of music here).
    const mediaDir = await mkdtemp(join(tmpdir(), 'takedesk-first-play-'));
    const fresh = await startSandbox({ mediaDir });
    try {
      await firstPlay(fresh);
    } finally {
      await fresh.close();
      await rm(mediaDir, { recursive: true, force: true });
    }
  }, 30_000);
});

/** Plays a track's mp3 the first time on `fresh`, then again. */
async function firstPlay(fresh: Sandbox): Promise<void> {
  const track = Track.parse((await call(fresh, 'GET', '/tracks/21', { token: fresh.tokens.full })).body);
  const started = performance.now();
  const first = await fetch(track.url.mp3, { headers: { range: 'bytes=0-' } });
  expect(first.status).toBe(200);
  expect(first.headers.get('content-type')).toContain('audio/mpeg');
  const reader = first.body!.getReader();
  const chunks: Uint8Array[] = [];
  const head = await reader.read();
  const firstByteMs = performance.now() - started;
  expect(firstByteMs).toBeLessThan(1_000);
  chunks.push(head.value!);
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  const streamed = Buffer.concat(chunks);
  // An MPEG frame sync at the start.
  expect(streamed[0]).toBe(0xff);
  expect(streamed[1]! & 0xe0).toBe(0xe0);

  const whole = await fetch(track.url.mp3);
  expect(Buffer.from(await whole.arrayBuffer()).equals(streamed)).toBe(true);
  const ranged = await fetch(track.url.mp3, { headers: { range: 'bytes=0-99' } });
  expect(ranged.status).toBe(206);
}

describe('openapi', () => {
  it('GET /openapi.json is OpenAPI 3.1 with every endpoint and component schemas', async () => {
    const r = await fetch(`${sb.url}/openapi.json`);
    const doc = (await r.json()) as Loose;
    expect(doc.openapi).toBe('3.1.0');
    for (const path of [
      '/projects',
      '/projects/{id}',
      '/search',
      '/deliverables/project/{projectId}',
      '/deliverables/{id}',
      '/revisions/{deliverableId}/versions',
      '/revisions/{deliverableId}',
      '/categories',
      '/categories/{id}/attributes',
      '/categories/{id}/attribute/{attributeId}/values',
      '/tracks',
      '/tracks/{id}',
      '/quote',
      '/users/auth',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.components.schemas.Project.type).toBe('object');
    expect(doc.paths['/projects/{id}'].put.responses['400'].description).toContain(
      'PROJECT_NO_EXIST (body status 404)',
    );
  });
});
