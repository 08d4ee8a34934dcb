import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeFile, peaksFromFile } from './file-analysis';
import { openMp3File } from './mp3';
import { encodeMp3, encodeWav, stereoTones } from './test-support/test-signals';

// A link put in an item's place after the library checked it (issue 24 item 5): the read itself refuses it.
describe.skipIf(process.platform === 'win32')('audio files are read without following a link', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'takedesk-nofollow-'));
    const tone = stereoTones(48_000, [{ frequency: 440, seconds: 1, dbfs: -20 }]);
    await writeFile(join(dir, 'outside.wav'), encodeWav(tone, { sampleRate: 48_000, bits: 16 }));
    await writeFile(join(dir, 'outside.mp3'), encodeMp3(tone, 48_000));
    await symlink(join(dir, 'outside.wav'), join(dir, 'take.wav'));
    await symlink(join(dir, 'outside.mp3'), join(dir, 'take.mp3'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('the real file reads; the link to it does not (ELOOP), for analysis, peaks and the MP3 image', async () => {
    expect((await analyzeFile(join(dir, 'outside.wav'))).durationSeconds).toBeCloseTo(1, 1);
    await expect(analyzeFile(join(dir, 'take.wav'))).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(peaksFromFile(join(dir, 'take.wav'))).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(analyzeFile(join(dir, 'take.mp3'))).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(openMp3File(join(dir, 'take.mp3'))).rejects.toMatchObject({ code: 'ELOOP' });
  });
});
