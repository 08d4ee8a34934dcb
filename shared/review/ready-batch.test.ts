import { describe, expect, it } from 'vitest';
import {
  createReadyBatcher,
  readyBatchText,
  takeName,
  type BatchTimers,
  type ReadyTake,
} from './ready-batch';

const ready = (
  deliverableId: string,
  deliverableName: string,
  projectId = 'p1',
  projectTitle = 'Spring promo',
) =>
  ({
    projectId,
    projectTitle,
    deliverableId,
    deliverableName,
    serviceSubCategory: 'voice_over',
  }) as ReadyTake;

describe('takeName', () => {
  it.each([
    ['voice_over', '1', 'Voice over · part 1'],
    ['voice_over', 'Part 2', 'Voice over · part 2'],
    ['voice_over', 'Entry 1 (Ana)', 'Voice over · Entry 1 (Ana)'],
    ['voice_over', 'Voice over', 'Voice over'],
    ['scriptwriting', 'Script', 'Script writing · Script'],
  ])('%s %s -> %s', (serviceSubCategory, name, text) => {
    expect(takeName({ serviceSubCategory, name })).toBe(text);
  });

  it('adds the first words of the line it reads, and the take number after a replacement', () => {
    const part = { serviceSubCategory: 'voice_over', name: '1' };
    const script = 'Fresh bread every morning, delivered warm to your door by the corner bakery.';
    expect(takeName(part, { script })).toBe('Voice over · part 1 · “Fresh bread every morning…”');
    expect(takeName(part, { script: 'Hi there.', take: 2 })).toBe(
      'Voice over · part 1 · “Hi there.” · take 2',
    );
    expect(takeName(part, { take: 1 })).toBe('Voice over · part 1');
  });
});

describe('readyBatchText', () => {
  it('names a lone take with its project', () => {
    expect(readyBatchText([ready('a', '1')])).toEqual({
      title: 'Ready for review',
      body: 'Spring promo: Voice over · part 1',
    });
  });

  it('one project: how many, and which', () => {
    expect(readyBatchText([ready('a', '1'), ready('b', '2')])).toEqual({
      title: '2 takes ready for review',
      body: 'Spring promo: Voice over · part 1, Voice over · part 2',
    });
  });

  it('several projects: how many for each', () => {
    const batch = [ready('a', '1'), ready('b', '2'), ready('c', '1', 'p2', 'Jingle')];
    expect(readyBatchText(batch)).toEqual({
      title: '3 takes ready for review',
      body: 'Spring promo (2) · Jingle (1)',
    });
  });
});

describe('createReadyBatcher', () => {
  function fakeTimers() {
    const due: Array<{ fn: () => void; live: boolean }> = [];
    const timers: BatchTimers = {
      set: (fn) => {
        const t = { fn, live: true };
        due.push(t);
        return t;
      },
      clear: (t) => {
        (t as { live: boolean }).live = false;
      },
    };
    const fire = () => due.filter((t) => t.live).forEach((t) => ((t.live = false), t.fn()));
    return { timers, fire };
  }

  it('hands over one batch when the turn ends, the same take once', () => {
    const batches: ReadyTake[][] = [];
    const { timers, fire } = fakeTimers();
    const batcher = createReadyBatcher((b) => batches.push(b), 3000, timers);
    batcher.add(ready('a', '1'));
    batcher.add(ready('b', '2'));
    batcher.add(ready('a', '1'));
    expect(batches).toEqual([]);
    batcher.end();
    expect(batches.map((b) => b.map((t) => t.deliverableId))).toEqual([['a', 'b']]);
    // Nothing pending: an end or a late timer says nothing more.
    batcher.end();
    fire();
    expect(batches).toHaveLength(1);
  });

  it('flushes after the wait when the turn never says it ended', () => {
    const batches: ReadyTake[][] = [];
    const { timers, fire } = fakeTimers();
    const batcher = createReadyBatcher((b) => batches.push(b), 3000, timers);
    batcher.add(ready('a', '1'));
    fire();
    expect(batches).toHaveLength(1);
  });
});
