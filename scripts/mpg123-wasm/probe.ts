// Probe: decode time of the benchmark MP3 with our own mpg123 builds (scripts/mpg123-wasm/build.sh), the
// mpg123-decoder package the app uses, and `ffmpeg -i F -f null -`, in one run.
//   npx tsx scripts/mpg123-wasm/probe.ts <file.mp3> <build.wasm>...
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { MPEGDecoder } from 'mpg123-decoder';

interface Exports {
  memory: { buffer: ArrayBuffer };
  dec_open(): number;
  dec_alloc(bytes: number): number;
  dec_feed(input: number, length: number, output: number, capacity: number): number | bigint;
}

// The node project's libraries do not type WebAssembly; this is the part used here.
const wasmApi = (
  globalThis as unknown as {
    WebAssembly: {
      instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: unknown } }>;
    };
  }
).WebAssembly;

// The only WASI calls the feed-mode decoder imports; none is used when decoding from memory.
const wasiStubs = { fd_close: () => 8, fd_read: () => 8, fd_seek: () => 8, fd_write: () => 8 };

async function ownBuild(wasm: string, mp3: Uint8Array): Promise<{ ms: number; frames: number }> {
  const { instance } = await wasmApi.instantiate(readFileSync(wasm), {
    wasi_snapshot_preview1: wasiStubs,
  });
  const e = instance.exports as unknown as Exports & { _initialize?: () => void };
  e._initialize?.();
  const t0 = performance.now();
  e.dec_open();
  const chunk = 1 << 20;
  const capacity = 8 << 20;
  const input = e.dec_alloc(chunk);
  const output = e.dec_alloc(capacity);
  let samples = 0;
  for (let o = 0; o < mp3.length; o += chunk) {
    const part = mp3.subarray(o, o + chunk);
    new Uint8Array(e.memory.buffer, input, part.length).set(part);
    samples += Number(e.dec_feed(input, part.length, output, capacity));
  }
  return { ms: performance.now() - t0, frames: samples / 2 };
}

async function packaged(mp3: Uint8Array): Promise<{ ms: number; frames: number }> {
  const decoder = new MPEGDecoder({ enableGapless: true });
  await decoder.ready;
  const t0 = performance.now();
  let frames = 0;
  for (let o = 0; o < mp3.length; o += 1 << 16)
    frames += decoder.decode(mp3.subarray(o, o + (1 << 16))).samplesDecoded;
  decoder.free();
  return { ms: performance.now() - t0, frames };
}

const [file, ...builds] = process.argv.slice(2);
if (!file) throw new Error('usage: probe.ts <file.mp3> <build.wasm>...');
const mp3 = new Uint8Array(readFileSync(file));
for (let run = 1; run <= 3; run++) {
  const t0 = performance.now();
  spawnSync('ffmpeg', ['-nostdin', '-hide_banner', '-nostats', '-i', file, '-f', 'null', '-']);
  const ffmpegMs = performance.now() - t0;
  const rows = [`ffmpeg -f null ${ffmpegMs.toFixed(0)} ms`];
  const p = await packaged(mp3);
  rows.push(`mpg123-decoder ${p.ms.toFixed(0)} ms (${(ffmpegMs / p.ms).toFixed(2)}x)`);
  for (const wasm of builds) {
    const r = await ownBuild(wasm, mp3);
    rows.push(
      `${wasm.split('/').pop()} ${r.ms.toFixed(0)} ms (${(ffmpegMs / r.ms).toFixed(2)}x, ${r.frames} frames)`,
    );
  }
  console.log(`run ${run}: ${rows.join(' | ')}`);
}
