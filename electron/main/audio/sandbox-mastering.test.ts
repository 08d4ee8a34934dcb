import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_TARGETS, qaBadgeText, qaTargetForPurpose } from '../../../shared/audio/qa';
import type { Sandbox } from '../../sandbox/server';
import { call, startSandbox, voiceOverBody, type Loose } from '../../sandbox/test-support/test-helpers';
import { analyzeFile } from './file-analysis';

// The sandbox's creatives master each take to its project's purpose; the app's own analyser checks the files.

const dir = mkdtempSync(join(tmpdir(), 'takedesk-mastering-'));
let inSpec: Sandbox;
let outOfSpec: Sandbox;
beforeAll(async () => {
  [inSpec, outOfSpec] = await Promise.all([
    startSandbox({ outOfSpecRate: 0 }),
    startSandbox({ outOfSpecRate: 1 }),
  ]);
});
afterAll(async () => {
  await Promise.all([inSpec.close(), outOfSpec.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Orders a short voice over for `purpose`, delivers it, and downloads its files. */
async function deliveredFiles(sb: Sandbox, purpose: string): Promise<string[]> {
  const token = sb.tokens.full;
  const body = voiceOverBody({ title: `QA ${purpose}` }) as Loose;
  body.services[0].purpose = purpose;
  body.services[0].script = [{ part001: 'Fresh bread at your door every morning, baked the same night.' }];
  const created = await call(sb, 'POST', '/projects', { token, body });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const projectId = (created.body.project ?? created.body).id as string;
  await sb.deliverNow(projectId);
  const list = await call(sb, 'GET', `/deliverables/project/${projectId}`, { token });
  const deliverable = (list.body.deliverables ?? list.body)[0] as Loose;
  const urls = deliverable.urls ?? deliverable.url;
  return Promise.all(
    (['wav', 'mp3'] as const).map(async (format) => {
      const bytes = Buffer.from(await (await fetch(urls[format] as string)).arrayBuffer());
      const path = join(dir, `${purpose}-${sb === inSpec ? 'in' : 'out'}.${format}`);
      writeFileSync(path, bytes);
      return path;
    }),
  );
}

describe('sandbox mastering, measured by the app', () => {
  it.each(['radioTvAds', 'podcast', 'videoGame'])(
    "a %s take (WAV and MP3) is within ±1 LU of its purpose's target, true peak under -1 dBTP",
    async (purpose) => {
      const target = qaTargetForPurpose(purpose);
      for (const path of await deliveredFiles(inSpec, purpose)) {
        const a = await analyzeFile(path, { target });
        expect(
          Math.abs(a.integratedLufs! - DELIVERY_TARGETS[target].integratedLufs),
          path,
        ).toBeLessThanOrEqual(1);
        expect(a.truePeakDbtp!, path).toBeLessThanOrEqual(-1);
        expect(a.verdict?.pass, path).toBe(true);
      }
    },
    60_000,
  );

  it('an out-of-spec take fails its target, and the verdict says which target and by how much', async () => {
    const [wav] = await deliveredFiles(outOfSpec, 'radioTvAds');
    const a = await analyzeFile(wav!, { target: 'ebu-r128' });
    expect(a.verdict?.pass).toBe(false);
    expect(qaBadgeText(a.verdict!)).toMatch(/^fails EBU R128 -23: -1[5-7]\.\d LUFS$/);
  }, 60_000);
});
