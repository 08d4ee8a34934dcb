import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createHashThread } from './hasher';

describe('off-thread sha256', () => {
  const thread = createHashThread();
  afterAll(() => thread.close());

  it('equals node:crypto over the same chunks, even when the caller reuses its buffers', async () => {
    const data = randomBytes(5 * 1024 * 1024 + 123);
    const reference = createHash('sha256').update(data).digest('hex');
    const hash = thread.create();
    const scratch = Buffer.alloc(700_001);
    for (let at = 0; at < data.length; at += scratch.length) {
      const n = data.copy(scratch, 0, at, Math.min(data.length, at + scratch.length));
      hash.update(scratch.subarray(0, n));
      scratch.fill(0xaa); // the transfer recycles its buffer right after writing it
    }
    await expect(hash.digest()).resolves.toBe(reference);
  });

  it('keeps interleaved hashes apart, and an abandoned one does not disturb the others', async () => {
    const a = thread.create();
    const b = thread.create();
    const dropped = thread.create();
    for (let i = 0; i < 50; i++) {
      a.update(Buffer.from(`a${i}`));
      dropped.update(Buffer.from('zzz'));
      b.update(Buffer.from(`b${i}`));
    }
    dropped.dispose();
    const expected = (p: string) =>
      createHash('sha256')
        .update(Array.from({ length: 50 }, (_, i) => `${p}${i}`).join(''))
        .digest('hex');
    await expect(Promise.all([a.digest(), b.digest()])).resolves.toEqual([expected('a'), expected('b')]);
    await expect(thread.create().digest()).resolves.toBe(createHash('sha256').digest('hex'));
  });
});
