import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav, stereoTones } from './test-support/test-signals';

const root = resolve(import.meta.dirname, '../../..');
const tsx = join(root, 'node_modules/.bin/tsx');
const run = (...args: string[]) =>
  spawnSync(tsx, [join(root, 'electron/main/audio/cli.ts'), ...args], { encoding: 'utf8', cwd: root });

let dir: string;
let wav: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'takedesk-cli-'));
  wav = join(dir, 'ad.wav');
  writeFileSync(
    wav,
    encodeWav(stereoTones(48000, [{ dbfs: -17, seconds: 6 }]), { sampleRate: 48000, bits: 24 }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run analyze (cli.ts)', () => {
  it('prints exactly one JSON object with the documented fields and a verdict', () => {
    const r = run(wav, '--target', 'podcast', '--seconds', '6');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual([
      'durationSeconds',
      'sampleRate',
      'channels',
      'bitDepth',
      'integratedLufs',
      'loudnessRangeLu',
      'maxMomentaryLufs',
      'maxShortTermLufs',
      'truePeakDbtp',
      'samplePeakDbfs',
      'verdict',
    ]);
    expect(out).toMatchObject({ durationSeconds: 6, sampleRate: 48000, channels: 2, bitDepth: 24 });
    expect(Math.abs((out.integratedLufs as number) + 17)).toBeLessThanOrEqual(0.1);
    expect(out.verdict).toMatchObject({ target: 'podcast', pass: true });
  });

  it('defaults to EBU R128, which this -17 LUFS file fails', () => {
    const r = run(wav);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).verdict).toMatchObject({ target: 'ebu-r128', pass: false });
  });

  it.each([
    [['/nonexistent/take.wav'], 1, /cannot analyse \/nonexistent\/take.wav: no such file/],
    [['--target', 'loud', 'x.wav'], 2, /unknown target "loud"/],
    [[], 2, /expected exactly one file/],
  ])('exits non-zero with a clear message: %j', (args, status, message) => {
    const r = run(...args);
    expect(r.status).toBe(status);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('rejects unreadable audio with exit code 1', () => {
    const bad = join(dir, 'bad.wav');
    writeFileSync(bad, encodeWav([new Float32Array(100)], { sampleRate: 8000, bits: 16 }).subarray(0, 60));
    const r = run(bad);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/Truncated WAV/);
  });
});
