/**
 * Sandbox throughput: requests/s of GET /projects/{id} and POST /projects, each server in its own child
 * process pinned to one core (taskset when available), loaded with autocannon's programmatic API from
 * this process. The reference is a bare node:http server answering the same JSON body, measured in the
 * same run, so the figure is a ratio and not a claim about this machine.
 *
 *   npx tsx bench/sandbox.ts   (BENCH_SECONDS=5 per run, BENCH_ROUNDS=3, BENCH_CONNECTIONS=32)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { voiceOverService } from '../electron/sandbox/sample-bodies';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  duration?: number;
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Each scenario runs this many times, interleaved, and the best run counts (the machine may be shared). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const PROJECT_BODY = {
  title: 'Bench campaign',
  mainService: 'voice_over',
  remarks: '',
  services: [voiceOverService()],
};

interface ChildInfo {
  url: string;
  token?: string;
  projectId?: string;
  projectJson?: string;
}

/** Child mode: one server, prints its info as one JSON line. */
async function child(mode: string): Promise<void> {
  if (mode === 'sandbox') {
    const { createSandbox } = await import('../electron/sandbox/server');
    const sandbox = await createSandbox({ delivery: 'manual' });
    const created = await fetch(`${sandbox.url}/projects`, {
      method: 'POST',
      headers: { 'x-access-token': sandbox.tokens.full, 'content-type': 'application/json' },
      body: JSON.stringify(PROJECT_BODY),
    });
    const projectJson = await created.text();
    const projectId = (JSON.parse(projectJson) as { id: string }).id;
    console.log(JSON.stringify({ url: sandbox.url, token: sandbox.tokens.full, projectId, projectJson }));
    return;
  }
  // Bare reference: reads the request body, answers a fixed JSON document of the same size as a project.
  const body = process.env.BENCH_BODY ?? '{}';
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });
}

function startChild(
  mode: string,
  env: Record<string, string> = {},
): Promise<{ proc: ChildProcess; info: ChildInfo }> {
  const self = fileURLToPath(import.meta.url);
  const node = [process.execPath, '--import', 'tsx', self, '--child', mode];
  const pinned = spawnSync('taskset', ['--version']).status === 0;
  const [cmd, ...args] = pinned ? ['taskset', '-c', '0', ...node] : node;
  const proc = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${mode} child exited (${code})`)));
    createInterface({ input: proc.stdout! }).once('line', (line) =>
      resolve({ proc, info: JSON.parse(line) as ChildInfo }),
    );
  });
}

interface Row {
  scenario: string;
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  'vs bare node:http': string;
  non2xx: number;
}

async function measure(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
) {
  return autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...options });
}

async function main(): Promise<void> {
  const modeIndex = process.argv.indexOf('--child');
  if (modeIndex >= 0) return child(process.argv[modeIndex + 1] ?? 'bare');

  const sandbox = await startChild('sandbox');
  const bare = await startChild('bare', { BENCH_BODY: sandbox.info.projectJson ?? '{}' });
  try {
    const json = { 'content-type': 'application/json' };
    const auth = { 'x-access-token': sandbox.info.token! };
    const body = JSON.stringify(PROJECT_BODY);
    // Warm up both servers (JIT, zod schemas) before measuring.
    await autocannon({
      url: `${sandbox.info.url}/projects/${sandbox.info.projectId}`,
      headers: auth,
      duration: 1,
    });
    await autocannon({ url: bare.info.url, duration: 1 });

    const scenarios = {
      bareGet: () => measure(bare.info.url, {}),
      sandboxGet: () => measure(`${sandbox.info.url}/projects/${sandbox.info.projectId}`, { headers: auth }),
      barePost: () => measure(bare.info.url, { method: 'POST', headers: json, body }),
      sandboxPost: () =>
        measure(`${sandbox.info.url}/projects`, { method: 'POST', headers: { ...json, ...auth }, body }),
    };
    const best: Partial<Record<keyof typeof scenarios, AutocannonResult>> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, run] of Object.entries(scenarios) as Array<
        [keyof typeof scenarios, () => Promise<AutocannonResult>]
      >) {
        const r = await run();
        if (!best[name] || r.requests.average > best[name].requests.average) best[name] = r;
      }
    }
    const { bareGet, sandboxGet, barePost, sandboxPost } = best as Required<typeof best>;

    const row = (scenario: string, r: AutocannonResult, reference: AutocannonResult): Row => ({
      scenario,
      'req/s': Math.round(r.requests.average),
      'p50 ms': r.latency.p50,
      'p99 ms': r.latency.p99,
      'vs bare node:http': `${((r.requests.average / reference.requests.average) * 100).toFixed(0)} %`,
      non2xx: r.non2xx + r.errors,
    });
    console.log(
      `\nSandbox throughput, one core per server, ${CONNECTIONS} connections, best of ${ROUNDS} x ${SECONDS} s`,
    );
    console.table([
      row('bare node:http GET (reference)', bareGet, bareGet),
      row('sandbox GET /projects/{id}', sandboxGet, bareGet),
      row('bare node:http POST (reference)', barePost, barePost),
      row('sandbox POST /projects', sandboxPost, barePost),
    ]);
  } finally {
    sandbox.proc.removeAllListeners('exit');
    bare.proc.removeAllListeners('exit');
    sandbox.proc.kill('SIGTERM');
    bare.proc.kill('SIGTERM');
  }
}

await main();
