import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from './server';
import { audioAdsBody, call, startSandbox, voiceOverBody, type Loose } from './test-helpers';
import { createPrng } from './test-prng';

// 1,000 randomly mutated create-project bodies never give a 5xx (seeded, so a failure reproduces).

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

const SEED = 'create-fuzz-v1';

function mutate(rnd: () => number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
  const junk = (): unknown =>
    pick<() => unknown>([
      () => null,
      () => undefined,
      () => Math.floor(rnd() * 2000) - 1000,
      () => rnd() * 1e12,
      () => Number.MAX_SAFE_INTEGER,
      () => '',
      () => 'x'.repeat(Math.floor(rnd() * 300)),
      () => '💥'.repeat(Math.floor(rnd() * 120)),
      () => true,
      () => [],
      () => [1, 'two', null],
      () => ({}),
      () => ({ nested: { deeper: [{}] } }),
      () => 'eng-us',
      () => 'voice_over',
      () => 'audio_ads',
      () => 'https://example.com/a.mp3',
      () => 'not a url',
      () => ({ part001: 'Hello there' }),
      () => [{ part001: 42 }],
      () => '__proto__',
    ])();
  const body: Loose = structuredClone(rnd() < 0.5 ? voiceOverBody() : audioAdsBody());
  const steps = 1 + Math.floor(rnd() * 4);
  for (let i = 0; i < steps; i++) {
    const target: Loose =
      rnd() < 0.4 || !Array.isArray(body.services) || body.services.length === 0
        ? body
        : typeof body.services[0] === 'object' && body.services[0] !== null
          ? pick(body.services as Loose[])
          : body;
    if (typeof target !== 'object' || target === null) break;
    const keys = Object.keys(target);
    const action = rnd();
    if (action < 0.3 && keys.length > 0) delete target[pick(keys)];
    else if (action < 0.75 && keys.length > 0) target[pick(keys)] = junk();
    else if (action < 0.85)
      target[pick(['extra', 'tone', 'trackId', 'ownMusicFile', 'seconds', 'script'])] = junk();
    else if (action < 0.95 && Array.isArray(body.services)) {
      const op = rnd();
      if (op < 0.33) body.services.push(junk());
      else if (op < 0.66) body.services.splice(Math.floor(rnd() * body.services.length), 1);
      else body.services = [...body.services, ...body.services];
    } else return junk();
  }
  return body;
}

it('1,000 mutated create bodies: no 5xx, every error is a catalog-shaped body', async () => {
  const rnd = createPrng(SEED);
  const statuses = new Map<number, number>();
  for (let i = 0; i < 1000; i++) {
    const body = mutate(rnd);
    const raw = body === undefined ? '' : JSON.stringify(body);
    const r = await call(sb, 'POST', '/projects', { token: sb.tokens.full, raw });
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    expect(
      r.status,
      `case ${i} (seed ${SEED}): ${raw.slice(0, 300)} -> ${JSON.stringify(r.body)}`,
    ).toBeLessThan(500);
    if (r.status !== 200) {
      expect(typeof r.body.type).toBe('string');
      expect(r.body.status).toBeTypeOf('number');
    } else {
      expect(r.body.status).toBe('paid');
    }
  }
  // The mutations reach both outcomes, so the test is not vacuous.
  expect(statuses.get(200) ?? 0).toBeGreaterThan(20);
  expect(statuses.get(422) ?? 0).toBeGreaterThan(300);
}, 120_000);
