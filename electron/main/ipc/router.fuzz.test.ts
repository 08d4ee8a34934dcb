import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, contract, type Result } from '../../../shared/ipc';
import type { Services } from '../services';
import { startTestWorld, type TestWorld } from '../test-world';

/** Seeded (mulberry32), so a failing input can be replayed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = [
  'id',
  'page',
  'pageSize',
  'title',
  'body',
  'projectId',
  'deliverableId',
  'format',
  'url',
  'name',
  'baseUrl',
  'token',
  'email',
  'password',
  'categoryId',
  'attributeId',
  'instructions',
  'checkTalent',
  'reason',
  'reasonCode',
  'version',
  'formats',
  'target',
  'libraryDir',
  '__proto__',
  'constructor',
  'toString',
  '',
];
const STRINGS = [
  '',
  ' ',
  'sandbox',
  '../../etc/passwd',
  'wav',
  'mp3',
  '\u0000',
  '%00',
  '😀'.repeat(50),
  'null',
  '{"a":1}',
  'x'.repeat(5000),
  'ebu-r128',
  'voice_over',
  '<script>alert(1)</script>',
  'C:\\Windows',
  '/tmp',
];

function randomValue(r: () => number, depth = 0): unknown {
  const pick = Math.floor(r() * (depth > 2 ? 6 : 9));
  switch (pick) {
    case 0:
      return undefined;
    case 1:
      return null;
    case 2:
      return r() < 0.5;
    case 3:
      return [0, -1, 1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER, NaN, 3][Math.floor(r() * 9)];
    case 4:
    case 5:
      return STRINGS[Math.floor(r() * STRINGS.length)];
    case 6:
      return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 5); i > 0; i--) {
        out[KEYS[Math.floor(r() * KEYS.length)]!] = randomValue(r, depth + 1);
      }
      return out;
    }
  }
}

describe('router fuzz: 500 random inputs per channel', () => {
  let world: TestWorld;
  let services: Services;

  beforeAll(async () => {
    world = await startTestWorld('fuzz');
    services = world.services;
  });
  afterAll(() => world.close());

  it.each(CHANNELS.map((c) => [c]))(
    '%s never throws and answers invalid input with VALIDATION_ERROR',
    async (channel) => {
      const r = rng([...channel].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7));
      for (let i = 0; i < 500; i++) {
        const input = randomValue(r);
        const result = (await services.router.invoke(channel, input, {
          transport: 'browser',
        })) as Result<unknown>;
        expect(typeof result.ok).toBe('boolean');
        const valid = contract[channel].input.safeParse(input).success;
        if (!valid) {
          expect(result.ok).toBe(false);
          if (!result.ok) expect(result.error.type).toBe('VALIDATION_ERROR');
        }
        if (!result.ok) {
          expect(typeof result.error.message).toBe('string');
          expect(result.error.type).not.toBe('INTERNAL');
        }
      }
    },
    60_000,
  );

  it('rejects unknown channels and non-string channel names', async () => {
    for (const channel of ['', 'projects', 'projects.list.extra', '__proto__', 'constructor', 42, null, {}]) {
      const result = await services.router.invoke(channel, {}, { transport: 'browser' });
      expect(result).toMatchObject({ ok: false, error: { type: 'VALIDATION_ERROR' } });
    }
  });
});
