/**
 * Property-based fuzz of every IPC channel (issue 13), on fast-check with a fixed seed and a bounded number of
 * runs so CI is deterministic: arbitrary inputs (everything structured clone can carry) and near-valid inputs
 * derived from each channel's schema, with ids drawn from a list that includes hostile ones. The whole main
 * process runs against the real sandbox behind a recording proxy. For every input: an envelope, never a throw,
 * never INTERNAL, never a 5xx; invalid input is VALIDATION_ERROR; every request that reached the sandbox
 * targets one of the spec's endpoints; and the app still answers afterwards.
 * Replay or go deeper locally: FUZZ_SEED=<n> FUZZ_RUNS=<n> npx vitest run electron/main/app/ipc/router.fuzz.test.ts
 */
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, contract, type Channel, type LibraryItem, type Result } from '../../../../shared/ipc';
import { HOSTILE_IDS, isSpecRequest } from '../../api/test-support/service-stand-ins';
import { startTestWorld, type TestWorld } from '../test-support/test-world';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261123);
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 40);

const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
const STRINGS = [
  ...HOSTILE_IDS,
  ...PROTO_KEYS,
  ' ',
  'sandbox',
  'voice_over',
  'wav',
  'null',
  '{"a":1}',
  '<script>alert(1)</script>',
  'C:\\Windows',
  '😀'.repeat(30),
  'x'.repeat(5000),
];

/**
 * Channels whose effects reach beyond the test's temp folder are neutralised, not skipped: the test world's
 * desktop port (reveal, drag) is a no-op, browser mode has no updater (check/install answer `disabled`), and
 * the values that could point elsewhere are drawn from safe lists below (service URLs, library folder).
 */
let world: TestWorld;
const known = { projectIds: [] as string[], deliverableIds: [] as string[] };

type Transport = 'browser' | 'electron';
const invoke = (channel: unknown, input: unknown, transport: Transport = 'browser') =>
  world.services.router.invoke(channel, input, { transport });

function idArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_IDS, ...PROTO_KEYS) },
    { weight: 2, arbitrary: fc.constantFrom('sandbox', 'voice_over', 'language', '20', ...known.projectIds) },
    { weight: 2, arbitrary: fc.constantFrom(...known.deliverableIds) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.string({ maxLength: 30, unit: 'binary' }) },
  );
}

function textArb(): fc.Arbitrary<string> {
  return fc.oneof(fc.constantFrom(...STRINGS), fc.string({ maxLength: 40 }), fc.string({ unit: 'binary' }));
}

/** Values that could send main somewhere outside the test: only the sandbox (via the proxy) or dead ends. */
function safeStringArb(key: string): fc.Arbitrary<string> | undefined {
  if (key === 'baseUrl') {
    return fc.constantFrom(
      proxyUrl(),
      `${proxyUrl()}/`,
      'http://127.0.0.1:1',
      'not a url',
      'file:///etc/passwd',
      '',
    );
  }
  if (key === 'token') return fc.constantFrom(world.sandbox.tokens.full, 'wrong-token', 'a b', '\u0000', '');
  if (key === 'url') {
    return fc.constantFrom(
      `${proxyUrl()}/media/x.wav`,
      'http://127.0.0.1:1/x.mp3',
      'javascript:alert(1)',
      '',
    );
  }
  if (key === 'libraryDir') return fc.constantFrom(join(world.dir, 'lib-a'), join(world.dir, 'Library'), '');
  return undefined;
}

const proxyUrl = () => world.serviceUrl;

type Def = {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string>;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

const VOICE_OVER = {
  title: 'Fuzz spot',
  mainService: 'voice_over',
  services: [
    { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'teenageGirl', script: 'Hello.' },
  ],
};

/** A create/quote body: mostly a real one with a field bent, sometimes anything at all. */
function bodyArb(): fc.Arbitrary<unknown> {
  const bent = fc
    .record({
      title: fc.oneof(fc.constant(VOICE_OVER.title), textArb()),
      mainService: fc.constantFrom('voice_over', 'audio_ads', ...PROTO_KEYS, ''),
      services: fc.oneof(fc.constant(VOICE_OVER.services), fc.anything({ maxDepth: 2 })),
    })
    .map((body) => ({ ...body }));
  return fc.oneof(bent, fc.dictionary(textArb(), fc.anything({ maxDepth: 2 }), { maxKeys: 4 }));
}

/** An arbitrary shaped like the schema, with hostile values mixed in (a near-valid input). */
function derive(schema: z.ZodType, key = ''): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
      return fc.option(derive(def.innerType!, key), { nil: undefined, freq: 3 });
    case 'object': {
      const fields = Object.fromEntries(Object.entries(def.shape!).map(([k, v]) => [k, derive(v, k)]));
      const shaped = fc.record(fields);
      // Sometimes an extra own key, a prototype key among them (JSON.parse and structured clone make those).
      const extra = fc
        .tuple(shaped, fc.constantFrom(...PROTO_KEYS, 'extra'), fc.anything({ maxDepth: 1 }))
        .map(([value, k, v]) => ({ ...value, [k]: v }));
      return fc.oneof({ weight: 5, arbitrary: shaped }, { weight: 1, arbitrary: extra });
    }
    case 'string':
      if (key === 'id' || key.endsWith('Id')) return idArb();
      return safeStringArb(key) ?? textArb();
    case 'number': {
      const n = schema as unknown as { minValue: number | null; maxValue: number | null };
      return fc.oneof(
        fc.integer({ min: Math.max(n.minValue ?? -1e6, -1e9), max: Math.min(n.maxValue ?? 1e6, 1e9) }),
        fc.constantFrom(0, -1, 1.5, NaN, Infinity, 1e308, Number.MAX_SAFE_INTEGER + 2),
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries!), 'nope', '__proto__');
    case 'array':
      return fc.array(derive(def.element!, key), { maxLength: 5 });
    case 'record':
      return bodyArb();
    case 'union':
      return fc.oneof(...def.options!.map((option) => derive(option, key)));
    case 'undefined':
      return fc.constant(undefined);
    case 'null':
      return fc.constant(null);
    default:
      return fc.anything({ maxDepth: 2 });
  }
}

/** Anything the renderer could send: over Electron IPC that includes Maps, Sets, typed arrays, null prototypes. */
const anythingArb = fc.anything({
  maxDepth: 3,
  key: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...PROTO_KEYS, 'id', 'body', 'projectId')),
  values: [textArb(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null)],
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withTypedArray: true,
  withDate: true,
  withBigInt: true,
  withSparseArray: true,
});

function seedOf(channel: string): number {
  return [...channel].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0, SEED >>> 0);
}

function expectEnvelope(result: Result<unknown>, channel: Channel, input: unknown): void {
  expect(typeof result.ok).toBe('boolean');
  if (!contract[channel].input.safeParse(input).success) {
    expect(result).toMatchObject({ ok: false, error: { type: 'VALIDATION_ERROR' } });
  }
  if (!result.ok) {
    expect(typeof result.error.type).toBe('string');
    expect(typeof result.error.message).toBe('string');
    expect(result.error.type, result.error.message).not.toBe('INTERNAL');
    expect(result.error.status, `${result.error.type}: ${result.error.message}`).toBeLessThan(500);
  }
}

function offSpec(from: number): string[] {
  return world.requests.slice(from).filter((request) => !isSpecRequest(request));
}

/** Orders `body` through the router and has it delivered: the project's id and its takes' ids. */
async function deliveredThroughRouter(
  body: unknown,
): Promise<{ projectId: string; deliverableIds: string[] }> {
  const created = await invoke('projects.create', { body });
  if (!created.ok) throw new Error(`setup: ${created.error.message}`);
  const projectId = (created.value as { id: string }).id;
  await world.sandbox.deliverNow(projectId);
  const listed = await invoke('deliverables.list', { projectId });
  if (!listed.ok) throw new Error(`setup: ${listed.error.message}`);
  return {
    projectId,
    deliverableIds: (listed.value as { items: Array<{ id: string }> }).items.map((d) => d.id),
  };
}

beforeAll(async () => {
  world = await startTestWorld('fuzz', { record: true });
  const { projectId, deliverableIds } = await deliveredThroughRouter(VOICE_OVER);
  known.projectIds.push(projectId);
  known.deliverableIds.push(...deliverableIds);
}, 60_000);
afterAll(() => world?.close());

describe('IPC fuzz (fast-check, fixed seed): every channel', () => {
  it.each(CHANNELS.map((c) => [c]))(
    '%s: an envelope for any input, never INTERNAL or 5xx, requests only to spec endpoints',
    async (channel) => {
      const from = world.requests.length;
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            { weight: 1, arbitrary: anythingArb },
            { weight: 2, arbitrary: derive(contract[channel].input) },
          ),
          fc.constantFrom<Transport>('browser', 'electron'),
          async (input, transport) => {
            const before = world.requests.length;
            expectEnvelope(await invoke(channel, input, transport), channel, input);
            expect(offSpec(before)).toEqual([]);
          },
        ),
        { seed: seedOf(channel), numRuns: RUNS, endOnFailure: true },
      );
      // Still answering, and still on the sandbox profile (profiles.* may have added and activated another).
      await invoke('profiles.activate', { id: 'sandbox' });
      // Downloads the fuzz started (into the temp library) are cancelled, so they do not slow the next channel.
      const jobs = await invoke('downloads.list', null);
      for (const job of jobs.ok ? (jobs.value as Array<{ id: string }>) : []) {
        await invoke('downloads.cancel', { id: job.id });
      }
      expect(await invoke('app.info', null)).toMatchObject({ ok: true });
      expect(await invoke('projects.list', { pageSize: 1 })).toMatchObject({ ok: true });
      expect(offSpec(from)).toEqual([]);
    },
    60_000,
  );
});

describe('hostile ids answer VALIDATION_ERROR on every channel that takes an id, and send nothing', () => {
  /** A valid input of a channel: each required field at a plain value. */
  function sample(schema: z.ZodType, key = ''): unknown {
    const def = defOf(schema);
    switch (def.type) {
      case 'optional':
        return undefined;
      case 'object':
        return Object.fromEntries(
          Object.entries(def.shape!)
            .map(([k, v]) => [k, sample(v, k)])
            .filter(([, v]) => v !== undefined),
        );
      case 'string':
        return key === 'id' || key.endsWith('Id') ? 'no-such-record' : 'x';
      case 'number':
        return (schema as unknown as { minValue: number | null }).minValue ?? 1;
      case 'boolean':
        return false;
      case 'enum':
        return Object.values(def.entries!)[0];
      case 'array':
        return [sample(def.element!, key)];
      case 'record':
        return {};
      case 'union':
        return sample(def.options![0]!, key);
      default:
        return undefined;
    }
  }
  const unwrap = (schema: z.ZodType): z.ZodType =>
    defOf(schema).type === 'optional' ? unwrap(defOf(schema).innerType!) : schema;
  const idFields = CHANNELS.flatMap((channel) => {
    const shape = defOf(unwrap(contract[channel].input)).shape ?? {};
    return Object.keys(shape)
      .filter((key) => key === 'id' || key.endsWith('Id'))
      .filter((key) => defOf(unwrap(shape[key]!)).type === 'string' && !['typeId', 'subtypeId'].includes(key))
      .map((key) => [channel, key] as const);
  });

  it('covers the id-carrying channels', () => {
    expect(idFields.length).toBeGreaterThan(25);
  });

  it.each(idFields)('%s.%s', async (channel, key) => {
    const base = sample(unwrap(contract[channel].input)) as Record<string, unknown>;
    expect(contract[channel].input.safeParse(base).success).toBe(true);
    const from = world.requests.length;
    for (const id of HOSTILE_IDS) {
      const result = await invoke(channel, { ...base, [key]: id });
      expect(result, JSON.stringify(id)).toMatchObject({ ok: false, error: { type: 'VALIDATION_ERROR' } });
    }
    expect(world.requests.slice(from)).toEqual([]);
  });
});

describe('unknown channels', () => {
  it.each(['', 'projects', 'projects.list.extra', ...PROTO_KEYS, 'projects.__proto__', 42, null, {}])(
    '%j is refused with VALIDATION_ERROR',
    async (channel) => {
      expect(await invoke(channel, {})).toMatchObject({ ok: false, error: { type: 'VALIDATION_ERROR' } });
    },
  );
});

/**
 * Issue 24: the library's channels and media route over files that are no longer what Takedesk downloaded. Each run
 * puts a seeded damage in place of one item's file (a link out of the library, a folder, junk, an empty or cut
 * file, nothing, or the file back; or junk or a link out at its `.peaks` sidecar) and calls one channel on it, then
 * asks the media route for it with a seeded Range: an envelope with a typed error (never INTERNAL), never a 5xx,
 * never a byte from outside the library.
 */
describe('IPC fuzz (fast-check, fixed seed): library channels over damaged library files', () => {
  const SECRET = 'bytes outside the library, never to be served';
  const CHANNELS_24 = [
    'audio.analyze',
    'audio.qa',
    'library.peaks',
    'library.reveal',
    'library.startDrag',
    'media.libraryUrl',
    'library.remove',
  ] as const;
  const DAMAGE = [
    'link',
    'folder',
    'junk',
    'empty',
    'cut',
    'missing',
    'intact',
    'peaks-junk',
    'peaks-link',
  ] as const;
  let libraryDir = '';
  let outsideFile = '';
  const items: Array<{ id: string; path: string; peaks: string; bytes: Buffer }> = [];

  beforeAll(async () => {
    // A library of its own (the fuzz above may have pointed the setting elsewhere).
    libraryDir = join(world.dir, 'Library-24');
    expect(await invoke('settings.set', { libraryDir })).toMatchObject({ ok: true });
    outsideFile = join(world.dir, 'outside.wav');
    await writeFile(outsideFile, SECRET);
    const { projectId, deliverableIds } = await deliveredThroughRouter({
      ...VOICE_OVER,
      services: [{ ...VOICE_OVER.services[0], script: 'One. Two. Three.' }],
    });
    const ids = [...known.deliverableIds, ...deliverableIds];
    for (const deliverableId of ids) {
      const projectOf = known.deliverableIds.includes(deliverableId) ? known.projectIds[0] : projectId;
      for (const format of ['wav', 'mp3'])
        await invoke('downloads.start', { deliverableId, projectId: projectOf, format });
    }
    let library: LibraryItem[] = [];
    for (let i = 0; i < 600 && library.length < ids.length * 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const answer = await invoke('library.list', undefined);
      library = answer.ok ? (answer.value as LibraryItem[]) : [];
    }
    expect(library.length).toBeGreaterThanOrEqual(4);
    for (const item of library) {
      const path = join(libraryDir, ...item.relativePath.split('/'));
      // The waveform sidecar lives in the library's hidden folder, mirroring the file's place.
      const peaks = `${join(libraryDir, '.takedesk', 'sidecars', ...item.relativePath.split('/'))}.peaks`;
      items.push({ id: item.id, path, peaks, bytes: await readFile(path) });
    }
  }, 120_000);

  async function damage(item: (typeof items)[number], kind: (typeof DAMAGE)[number], junk: Uint8Array) {
    await rm(item.path, { recursive: true, force: true });
    if (kind === 'link') await symlink(outsideFile, item.path);
    else if (kind === 'folder') await mkdir(item.path);
    else if (kind === 'junk') await writeFile(item.path, junk);
    else if (kind === 'empty') await writeFile(item.path, '');
    else if (kind === 'cut') await writeFile(item.path, item.bytes.subarray(0, junk.length));
    else if (kind === 'intact') await writeFile(item.path, item.bytes);
    else {
      // The file back, its waveform sidecar damaged instead.
      await writeFile(item.path, item.bytes);
      await mkdir(dirname(item.peaks), { recursive: true });
      await rm(item.peaks, { recursive: true, force: true });
      if (kind === 'peaks-junk') await writeFile(item.peaks, junk);
      else await symlink(outsideFile, item.peaks);
    }
  }

  const rangeArb = fc.option(
    fc.oneof(
      fc
        .tuple(fc.nat({ max: 100_000 }), fc.option(fc.nat({ max: 100_000 })))
        .map(([a, b]) => `bytes=${a}-${b ?? ''}`),
      fc.constantFrom('bytes=-10', 'bytes=0-0', 'bytes=a-b', 'bytes=5-1', 'bytes=0-1,2-3'),
    ),
    { nil: undefined },
  );

  it('typed answers, never INTERNAL or 5xx, never bytes from outside the library', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.constantFrom(...DAMAGE),
        fc.uint8Array({ maxLength: 4096 }),
        fc.constantFrom(...CHANNELS_24),
        rangeArb,
        fc.constantFrom<Transport>('browser', 'electron'),
        async (index, kind, junk, channel, range, transport) => {
          const item = items[index % items.length]!;
          await damage(item, kind, junk);
          const input = channel === 'audio.qa' ? { id: item.id, target: 'podcast' } : { id: item.id };
          expectEnvelope(await invoke(channel, input, transport), channel, input);
          const served = await world.services.media.library(
            item.id,
            new Request('http://x/', range ? { headers: { range } } : {}),
          );
          expect(served.status).toBeLessThan(500);
          expect(Buffer.from(await served.arrayBuffer()).toString('latin1')).not.toContain(SECRET);
        },
      ),
      { seed: seedOf('library-damage'), numRuns: RUNS * 2, endOnFailure: true },
    );
    // The file outside was never written through either.
    expect(await readFile(outsideFile, 'utf8')).toBe(SECRET);
  }, 120_000);
});
