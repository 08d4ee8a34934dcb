import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronBinary } from './lib/electron-binary';
import { unpackedExecutable } from './smoke-packaged';

describe('smoke:packaged', () => {
  it('finds the unpacked executable electron-builder --dir writes on each OS', () => {
    const dir = mkdtempSync(join(tmpdir(), 'takedesk-unpacked-'));
    try {
      expect(unpackedExecutable(dir, 'linux')).toBe(join(dir, 'linux-unpacked', 'takedesk'));
      expect(unpackedExecutable(dir, 'win32')).toBe(join(dir, 'win-unpacked', 'Takedesk.exe'));
      expect(unpackedExecutable(dir, 'darwin')).toBeNull();
      mkdirSync(join(dir, 'mac-arm64'));
      expect(unpackedExecutable(dir, 'darwin')).toBe(
        join(dir, 'mac-arm64', 'Takedesk.app', 'Contents', 'MacOS', 'Takedesk'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf('missing' in electronBinary())(
    'says why it skips where there is no Electron binary, and exits 0',
    () => {
      const run = spawnSync(
        process.execPath,
        ['--import', 'tsx', join(import.meta.dirname, 'smoke-packaged.ts')],
        {
          encoding: 'utf8',
        },
      );
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(
        /smoke:packaged skipped: no Electron binary here \(.+\); the release workflow runs it\./,
      );
    },
  );
});
