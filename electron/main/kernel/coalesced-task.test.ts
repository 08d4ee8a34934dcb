import { describe, expect, it } from 'vitest';
import { createCoalescedTask } from './coalesced-task';

describe('createCoalescedTask', () => {
  it('runs one pass at a time; calls during a pass share it and ask for exactly one more', async () => {
    let passes = 0;
    let inPass = 0;
    let release: () => void = () => undefined;
    const task = createCoalescedTask(async () => {
      passes++;
      inPass++;
      expect(inPass).toBe(1);
      await new Promise<void>((resolve) => (release = resolve));
      inPass--;
    });
    const first = task.run();
    const second = task.run();
    const third = task.run();
    expect(second).toBe(first);
    expect(third).toBe(first);
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(passes).toBe(2);
    release();
    await first;
    expect(passes).toBe(2);
    expect(task.running()).toBeNull();
  });

  it('a pass that throws ends the run and rejects it; the next run starts afresh', async () => {
    let passes = 0;
    const task = createCoalescedTask(async () => {
      passes++;
      if (passes === 1) throw new Error('disk gone');
    });
    await expect(task.run()).rejects.toThrow('disk gone');
    expect(task.running()).toBeNull();
    await task.run();
    expect(passes).toBe(2);
  });
});
