import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANCEL_REASONS } from '../../shared/api/reasons';
import type { Sandbox } from './server';
import { audioAdsBody, call, startSandbox, voiceOverBody, type Loose } from './test-support/test-helpers';

// Property-based fuzz of create (and quote), search and cancel against the real sandbox (seed data, rate
// card, media store): arbitrary and near-valid bodies and queries never give a 5xx or an INTERNAL body,
// every error is spec-shaped, the sandbox keeps answering, and whatever it accepted is delivered whole.
// Fixed seeds and bounded run counts: a failure reproduces, and the file stays well under 20 s in CI.

const RUNS = { create: 250, search: 200, cancel: 150 };
const SEED = 1313;

let sb: Sandbox;
const accepted: string[] = [];
const canceled = new Set<string>();
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

const PROTO_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'] as const;

/** Every answer: below 500, JSON, and when an error the spec's `{ status, type, message }`, never INTERNAL. */
function expectSane(r: { status: number; body: Loose }, what: string): void {
  const shown = `${what} -> ${r.status} ${JSON.stringify(r.body)?.slice(0, 300)}`;
  expect(r.status, shown).toBeLessThan(500);
  if (r.status >= 400) {
    expect(r.body, shown).toEqual({
      status: expect.any(Number),
      type: expect.any(String),
      message: expect.any(String),
    });
    expect(r.body.type, shown).not.toBe('INTERNAL');
  }
}

const token = (who: 'full' | 'otherUser' | 'none') => (who === 'none' ? null : sb.tokens[who]);
const tokenArb = fc.constantFrom<'full' | 'otherUser' | 'none'>(
  'full',
  'full',
  'full',
  'full',
  'otherUser',
  'none',
);

// --- values ------------------------------------------------------------------------------------

/** Values that sit on a bound or a type edge of some field. */
const edgeValue = fc.constantFrom<unknown>(
  null,
  0,
  -1,
  1e-9,
  0.5,
  30,
  3600,
  3601,
  1e308,
  Number.MAX_SAFE_INTEGER,
  true,
  false,
  '',
  '   ',
  'eng-us',
  'jpn-jp',
  'youngAdultFemale',
  'middleAgeMale',
  'voice_over',
  'audio_ads',
  'scriptwriting',
  'post-production',
  'speedy',
  'contest',
  'booking',
  'canceled',
  'no_longer_needed',
  'late_delivery.1_2',
  ...PROTO_KEYS,
  'https://example.com/a.mp3',
  'not a url',
  '💥'.repeat(60),
  'x'.repeat(101),
  'y'.repeat(20_000),
  [],
  {},
  [{}],
  [1, 'two', null],
  [{ part001: 'Hello there.' }],
  [{ part001: 42 }],
  { seriousHumorous: 1, conciseWordy: -2 },
  JSON.parse('{"__proto__": {"polluted": 1}}') as unknown,
  20,
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: edgeValue },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
);

/** Sets an own, enumerable property even for `__proto__`, so JSON.stringify sends it. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

// --- create-project bodies ----------------------------------------------------------------------

const FIELDS = [
  'title',
  'mainService',
  'fulfillmentType',
  'fake',
  'test',
  'remarks',
  'services',
  'subCategory',
  'language',
  'genderAndAge',
  'purpose',
  'script',
  'seconds',
  'topic',
  'targetAudience',
  'keywords',
  'voicePerspective',
  'tone',
  'assetsFiles',
  'trackId',
  'ownMusicFile',
  'ownMusicFileRights',
  'proSelectsMusic',
];
const keyArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...FIELDS) },
  { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);
const words = (n: number) => 'word '.repeat(n);
/** Values a field is likely to be probed with: around its bounds, plausible, or anything at all. */
const FIELD_VALUES: Partial<Record<string, fc.Arbitrary<unknown>>> = {
  seconds: fc.oneof(
    fc.constantFrom(0, -1, 1e-9, 1, 29.5, 30, 3599.5, 3600, 3601, 7200, 1e308),
    fc.double({ min: -10, max: 10_000, noNaN: true }),
  ),
  script: fc.oneof(
    fc.constantFrom<unknown>(
      words(8000),
      words(8001),
      '語'.repeat(100_001),
      Array.from({ length: 100 }, (_, i) => ({ [`part${i}`]: 'Hi.' })),
      Array.from({ length: 101 }, (_, i) => ({ [`part${i}`]: 'Hi.' })),
      [{ a: words(4000), b: words(4001) }],
    ),
    fc.array(fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 40 }), { maxKeys: 3 }), {
      maxLength: 4,
    }),
    fc.string({ maxLength: 60 }),
  ),
  title: fc.oneof(fc.string({ maxLength: 120 }), fc.constantFrom('x'.repeat(100), '😀'.repeat(101))),
  language: fc.constantFrom('eng-us', 'jpn-jp', 'spa-mx', 'cmn-zh', 'en-us', 'xx-yy'),
  genderAndAge: fc.constantFrom('youngAdultFemale', 'middleAgeMale', 'teenageGirl', 'baby', 'robot'),
  trackId: fc.oneof(fc.integer({ min: -2, max: 100 }), fc.constant(20)),
  tone: fc.dictionary(
    fc.constantFrom('seriousHumorous', 'conciseWordy', 'other'),
    fc.oneof(fc.integer(), fc.string()),
  ),
  fulfillmentType: fc.constantFrom('speedy', 'booking', 'contest', 'express'),
};
const valueFor = (key: string): fc.Arbitrary<unknown> => {
  const own = Object.hasOwn(FIELD_VALUES, key) ? FIELD_VALUES[key] : undefined;
  return own ? fc.oneof({ weight: 3, arbitrary: own }, { weight: 1, arbitrary: anyValue }) : anyValue;
};
const mutationArb = keyArb.chain((key) =>
  fc.record({
    /** -1: the body itself; otherwise a service index (modulo the number of services). */
    target: fc.integer({ min: -1, max: 3 }),
    key: fc.constant(key),
    remove: fc.boolean(),
    value: valueFor(key),
  }),
);
const nearValidCreate = fc
  .record({
    base: fc.constantFrom('voice_over', 'audio_ads', 'contest'),
    mutations: fc.array(mutationArb, { maxLength: 4 }),
    services: fc.constantFrom('keep', 'keep', 'keep', 'duplicate', 'drop-first', 'many'),
  })
  .map(({ base, mutations, services }) => {
    const body: Loose =
      base === 'voice_over'
        ? voiceOverBody()
        : base === 'contest'
          ? voiceOverBody({ fulfillmentType: 'contest' })
          : audioAdsBody();
    if (services === 'duplicate') body.services = [...body.services, ...body.services];
    if (services === 'drop-first') body.services = body.services.slice(1);
    if (services === 'many') body.services = Array.from({ length: 11 }, () => body.services[0]);
    for (const m of mutations) {
      const list = Array.isArray(body.services) ? (body.services as unknown[]) : [];
      const candidate = m.target < 0 || list.length === 0 ? body : list[m.target % list.length];
      if (typeof candidate !== 'object' || candidate === null) continue;
      const target = candidate as Record<string, unknown>;
      if (m.remove) delete target[m.key];
      else put(target, m.key, m.value);
    }
    return body as unknown;
  });
/** Valid bodies but for values on or past a bound: ad lengths, script sizes, fulfilment types. */
const boundaryCreate = fc.oneof(
  fc
    .record({
      scriptwriting: fc.option(FIELD_VALUES.seconds!, { nil: undefined }),
      post: FIELD_VALUES.seconds!,
      fulfillmentType: FIELD_VALUES.fulfillmentType!,
    })
    .map(({ scriptwriting, post, fulfillmentType }) => {
      const body: Loose = audioAdsBody({ fulfillmentType });
      body.services[2].seconds = post;
      if (scriptwriting === undefined) body.services.shift();
      else body.services[0].seconds = scriptwriting;
      return body as unknown;
    }),
  fc
    .record({
      script: FIELD_VALUES.script!,
      language: FIELD_VALUES.language!,
      fulfillmentType: FIELD_VALUES.fulfillmentType!,
    })
    .map(({ script, language, fulfillmentType }) => {
      const body: Loose = voiceOverBody({ fulfillmentType });
      Object.assign(body.services[0], { script, language });
      return body as unknown;
    }),
);
/** A raw request body: near-valid JSON most of the time, else any JSON value, or text that is not JSON. */
const createRaw = fc.oneof(
  { weight: 3, arbitrary: boundaryCreate.map((b) => JSON.stringify(b)) },
  { weight: 4, arbitrary: nearValidCreate.map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? '') },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

// --- search queries ------------------------------------------------------------------------------

const SEARCH_PARAMS = [
  'categoryId',
  'currency',
  'page',
  'pageSize',
  'language',
  'genderAndAge',
  'turnAroundTimeDays',
  'minimumPrice',
  'maximumPrice',
  'units',
  'unitType',
  'purpose',
];
const queryValue = fc.oneof(
  fc.constantFrom(
    'voice_over',
    'audio_ads',
    'USD',
    'eur',
    'XYZ',
    'eng-us',
    'youngAdultFemale',
    'teenageGirl',
    'radioTvAds',
    'seconds',
    'minutes',
    'hours',
    'units',
    'words',
    '0',
    '1',
    '-1',
    '2',
    '100',
    '101',
    '1e308',
    'NaN',
    'Infinity',
    '0.5',
    '',
    ...PROTO_KEYS,
  ),
  fc.integer({ min: -5, max: 10_000 }).map(String),
  fc.string({ maxLength: 12 }),
);
const searchQuery = fc
  .array(
    fc.tuple(
      fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...SEARCH_PARAMS) },
        fc.constantFrom(...PROTO_KEYS),
        fc.string({ maxLength: 6 }),
      ),
      queryValue,
    ),
    { maxLength: 8 },
  )
  .chain((pairs) =>
    fc
      .constantFrom<'voice_over' | 'none' | 'any'>('voice_over', 'voice_over', 'voice_over', 'none', 'any')
      .map((category) => {
        const params = new URLSearchParams();
        if (category === 'voice_over') params.append('categoryId', 'voice_over');
        for (const [key, value] of pairs) params.append(key, value);
        return params.toString();
      }),
  );

// --- cancel ----------------------------------------------------------------------------------------

const CANCEL_CODES = CANCEL_REASONS.flatMap((r) => [r.code, ...r.subReasons.map((s) => s.code)]);
const cancelBody = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        status: fc.oneof({ weight: 4, arbitrary: fc.constant('canceled') }, anyValue),
        reason: anyValue,
        reasonCode: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...CANCEL_CODES) }, anyValue),
      },
      { requiredKeys: ['status'] },
    ),
  },
  { weight: 1, arbitrary: anyValue },
);
/** A project id: one the sandbox accepted (by index), or anything at all. */
const projectRef = fc.oneof(
  { weight: 4, arbitrary: fc.nat().map((n) => ({ accepted: n })) },
  { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS).map((id) => ({ id })) },
  { weight: 1, arbitrary: fc.uuid().map((id) => ({ id })) },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 20 }).map((id) => ({ id })) },
);

// --- properties --------------------------------------------------------------------------------------

describe('fuzz (fast-check, fixed seed)', () => {
  it(`create and quote: ${RUNS.create} near-valid and arbitrary bodies`, async () => {
    await fc.assert(
      fc.asyncProperty(createRaw, tokenArb, async (raw, who) => {
        const r = await call(sb, 'POST', '/projects', { token: token(who), raw });
        expectSane(r, `POST /projects ${raw.slice(0, 300)}`);
        if (r.status === 200) {
          expect(r.body.status).toBe('paid');
          accepted.push(r.body.id as string);
        }
        const q = await call(sb, 'POST', '/quote', { token: token(who), raw });
        expectSane(q, `POST /quote ${raw.slice(0, 300)}`);
      }),
      { seed: SEED, numRuns: RUNS.create },
    );
    // Not vacuous: the near-valid bodies reach both outcomes.
    expect(accepted.length).toBeGreaterThan(RUNS.create / 10);
  }, 60_000);

  it(`search: ${RUNS.search} queries`, async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(searchQuery, tokenArb, async (query, who) => {
        const r = await call(sb, 'GET', `/search?${query}`, { token: token(who) });
        expectSane(r, `GET /search?${query}`);
        statuses.add(r.status);
      }),
      { seed: SEED + 1, numRuns: RUNS.search },
    );
    expect(statuses.has(200)).toBe(true);
  }, 60_000);

  it(`cancel: ${RUNS.cancel} bodies on accepted and arbitrary ids`, async () => {
    await fc.assert(
      fc.asyncProperty(projectRef, cancelBody, tokenArb, async (ref, body, who) => {
        const id = 'accepted' in ref ? (accepted[ref.accepted % accepted.length] ?? 'none') : ref.id;
        const path = `/projects/${encodeURIComponent(id)}`;
        const r = await call(sb, 'PUT', path, { token: token(who), body });
        expectSane(r, `PUT ${path} ${JSON.stringify(body)?.slice(0, 300)}`);
        if (r.status === 200) canceled.add(id);
      }),
      { seed: SEED + 2, numRuns: RUNS.cancel },
    );
    expect(canceled.size).toBeGreaterThan(0);
  }, 60_000);

  it('delivers everything it accepted, whole, and still answers', async () => {
    const full = sb.tokens.full;
    const r = await call(sb, 'POST', '/_sandbox/deliver', { token: full, body: {} });
    expectSane(r, 'POST /_sandbox/deliver');
    expect(r.status).toBe(200);
    const owners = [full, sb.tokens.otherUser];
    for (const id of accepted) {
      if (canceled.has(id)) continue;
      let list: { status: number; body: Loose } | undefined;
      for (const t of owners) {
        list = await call(sb, 'GET', `/deliverables/project/${id}`, { token: t });
        if (list.status === 200) break;
      }
      expect(list!.status).toBe(200);
      expect(list!.body.length, `project ${id} got no deliverables`).toBeGreaterThan(0);
      for (const d of list!.body)
        expect(Object.keys(d.urls).length, `deliverable ${d.id}`).toBeGreaterThan(0);
    }
    expect((await call(sb, 'GET', '/projects', { token: full })).status).toBe(200);
  }, 60_000);
});
