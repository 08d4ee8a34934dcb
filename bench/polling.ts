/**
 * Polling cost and notice time of the watcher (issue 14.9): requests a minute an idle app sends, and how long a
 * delivery takes to be noticed, at 50, 200 and 1,000 projects in work. The requests are counted by an HTTP proxy
 * in front of the sandbox (what the service would see); time is virtual (the watcher's clock and timers are
 * driven here), so an hour of polling runs in seconds while every request is real HTTP.
 *
 *   npx tsx bench/polling.ts   (BENCH_PROJECTS=50,200,1000, BENCH_TRIALS=5)
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliverableReadyEvent } from '../shared/ipc';
import { createMemorySettingsStore, createProfiles } from '../electron/main/profiles';
import { createMemorySecretStore } from '../electron/main/secrets';
import { createWatcher, DEFAULT_POLL_POLICY } from '../electron/main/watcher';
import { createTestClock } from '../electron/main/watcher/test-support/test-clock';
import { createSandbox } from '../electron/sandbox/server';
import { markdownTable } from './lib/report';

const SIZES = (process.env.BENCH_PROJECTS ?? '50,200,1000').split(',').map(Number);
const TRIALS = Number(process.env.BENCH_TRIALS ?? 5);
const MINUTE = 60_000;

/** A proxy that forwards to the sandbox and notes the virtual time of every request it passes. */
async function countingProxy(target: string, clock: { now: number }) {
  const seen: number[] = [];
  const upstream = new URL(target);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(clock.now);
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const fmt = (ms: number) =>
  ms >= MINUTE ? `${(ms / MINUTE).toFixed(1)} min` : `${(ms / 1000).toFixed(0)} s`;

async function measure(projects: number) {
  const clock = createTestClock(Date.parse('2026-11-23T09:00:00Z'));
  const sandbox = await createSandbox({ delivery: 'manual' });
  const proxy = await countingProxy(sandbox.url, clock);
  const direct = { url: sandbox.url, token: sandbox.tokens.full };
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${direct.url}${path}`, {
      method,
      headers: { 'x-access-token': direct.token, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await r.json()) as { id: string };
  };
  const ids: string[] = [];
  for (let i = 0; i < projects; i++) {
    const created = await call('POST', '/projects', {
      title: `In work ${i}`,
      mainService: 'voice_over',
      services: [
        { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'middleAgeMale', script: 'Hi.' },
      ],
    });
    ids.push(created.id);
  }

  const ready: Array<DeliverableReadyEvent & { at: number }> = [];
  const watcher = createWatcher({
    profiles: createProfiles({
      settingsStore: createMemorySettingsStore(),
      secrets: createMemorySecretStore(),
      sandbox: { ensure: async () => ({ url: proxy.url, token: direct.token }) },
      events: { emit: () => {} },
    }),
    events: {
      emit(event, payload) {
        if (event === 'deliverable.ready')
          ready.push({ ...(payload as DeliverableReadyEvent), at: clock.now });
        if (event === 'watcher.status') clock.turned();
      },
    },
    now: clock.date,
    setTimer: clock.setTimer,
  });
  const { advance } = clock;
  /** Virtual time from a delivery to its deliverable.ready, or null when not noticed within `limit`. */
  const notice = async (projectId: string, limit: number): Promise<number | null> => {
    await sandbox.deliverNow(projectId);
    const at = clock.now;
    for (let waited = 0; waited < limit; waited += 5_000) {
      await advance(5_000);
      const event = ready.find((e) => e.projectId === projectId);
      if (event) return event.at - at;
    }
    return null;
  };

  const start = clock.now;
  watcher.start();
  // Idle: the first look at every project, then steady polling; the rate is read over minutes 40-60.
  await advance(60 * MINUTE);
  const idle = proxy.seen.filter((t) => t >= start + 40 * MINUTE && t < start + 60 * MINUTE);
  const idleRate = idle.length / 20;
  let peak = 0;
  for (const t of proxy.seen)
    peak = Math.max(peak, proxy.seen.filter((u) => u >= t && u < t + MINUTE).length);

  const hot: number[] = [];
  const cold: number[] = [];
  let missed = 0;
  for (let trial = 0; trial < TRIALS; trial++) {
    const touched = ids[(trial * 7 + 1) % ids.length]!;
    await watcher.poke({ projectId: touched }); // e.g. a revision asked
    await advance(2 * MINUTE);
    const h = await notice(touched, 10 * MINUTE);
    if (h === null) missed++;
    else hot.push(h);
    // A project no one touched; the offset varies where the delivery falls in the rotation.
    await advance((trial + 1) * 37_000);
    const c = await notice(ids[(trial * 13 + ids.length / 2) % ids.length]!, 60 * MINUTE);
    if (c === null) missed++;
    else cold.push(c);
  }
  watcher.stop();
  await proxy.close();
  await sandbox.close();
  return { projects, idleRate, peak, hot, cold, missed };
}

const rows: string[][] = [];
for (const size of SIZES) {
  const r = await measure(size);
  console.log(
    `${size} projects in work: ${r.idleRate.toFixed(1)} requests/min idle (peak ${r.peak} in any minute); ` +
      `touched: median ${fmt(median(r.hot))}, max ${fmt(Math.max(...r.hot))}; ` +
      `untouched: median ${fmt(median(r.cold))}, max ${fmt(Math.max(...r.cold))}` +
      (r.missed ? `; ${r.missed} deliveries not noticed within the limit` : ''),
  );
  rows.push([
    String(size),
    r.idleRate.toFixed(1),
    String(r.peak),
    `${fmt(median(r.hot))} / ${fmt(Math.max(...r.hot))}`,
    `${fmt(median(r.cold))} / ${fmt(Math.max(...r.cold))}`,
  ]);
}
console.log(
  `\nBudget: ${DEFAULT_POLL_POLICY.budgetPerMinute} requests/min while shown; goals: touched within 60 s, others within 10 min.\n`,
);
console.log(
  markdownTable(
    [
      'projects in work',
      'requests/min idle',
      'peak in any minute',
      'notice, touched (median / max)',
      'notice, untouched (median / max)',
    ],
    rows,
  ),
);
