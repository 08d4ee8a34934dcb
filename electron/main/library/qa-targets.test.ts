import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createJsonSettingsStore, createMemorySettingsStore } from '../profiles/settings-store';
import { createQaTargets } from './qa-targets';

const dir = mkdtempSync(join(tmpdir(), 'takedesk-qa-targets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const producer = (target: 'ebu-r128' | 'atsc-a85' | 'podcast' | 'streaming') => ({
  target,
  from: 'producer' as const,
});
const purpose = (target: 'ebu-r128' | 'atsc-a85' | 'podcast' | 'streaming') => ({
  target,
  from: 'purpose' as const,
});

describe('per-project QA targets', () => {
  it('remembers a target per project: changing one project leaves the others alone', async () => {
    const targets = createQaTargets({
      store: createMemorySettingsStore(),
      activeProfileId: async () => 'sandbox',
    });
    expect(await targets.list()).toEqual({});
    await targets.set('p1', purpose('podcast'));
    await targets.set('p2', purpose('ebu-r128'));
    expect(await targets.set('p1', producer('streaming'))).toEqual({
      p1: producer('streaming'),
      p2: purpose('ebu-r128'),
    });
  });

  it("a purpose's target never replaces the producer's pick", async () => {
    const targets = createQaTargets({
      store: createMemorySettingsStore(),
      activeProfileId: async () => 'sandbox',
    });
    await targets.set('p1', producer('atsc-a85'));
    expect(await targets.set('p1', purpose('podcast'))).toEqual({ p1: producer('atsc-a85') });
  });

  it('keeps them across a restart (persisted in the settings file)', async () => {
    const path = join(dir, 'settings.json');
    const first = createQaTargets({
      store: createJsonSettingsStore({ path }),
      activeProfileId: async () => 'sandbox',
    });
    await first.set('p1', producer('podcast'));
    const reopened = createQaTargets({
      store: createJsonSettingsStore({ path }),
      activeProfileId: async () => 'sandbox',
    });
    expect(await reopened.list()).toEqual({ p1: producer('podcast') });
  });

  it("never shows one profile's targets in another", async () => {
    let active = 'sandbox';
    const targets = createQaTargets({
      store: createMemorySettingsStore(),
      activeProfileId: async () => active,
    });
    await targets.set('p1', producer('podcast'));
    active = 'live';
    expect(await targets.list()).toEqual({});
    await targets.set('p1', producer('ebu-r128'));
    active = 'sandbox';
    expect(await targets.list()).toEqual({ p1: producer('podcast') });
  });

  it('ignores a broken store, and an id naming a prototype key stays plain data', async () => {
    const store = createMemorySettingsStore({
      qaTargets: { sandbox: { p1: { target: 'loud', from: 'producer' } } },
    });
    const targets = createQaTargets({ store, activeProfileId: async () => 'sandbox' });
    expect(await targets.list()).toEqual({});
    const kept = await targets.set('__proto__', producer('podcast'));
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
    expect(Object.hasOwn(kept, '__proto__')).toBe(true);
  });
});
