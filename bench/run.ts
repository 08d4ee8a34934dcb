/**
 * `npm run bench`: every benchmark in turn, each printing its figures next to an outside reference measured in
 * the same run (curl, ffmpeg, sox, a bare node:http server, the sqlite3 shell). `npm run bench -- download` runs one.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const all = ['sandbox', 'download', 'analysis', 'polling', 'mirror'];
const wanted = process.argv.slice(2).filter((a) => all.includes(a));

let failed = 0;
for (const name of wanted.length ? wanted : all) {
  console.log(`\n=== bench/${name}.ts ===`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(here, `${name}.ts`)], {
    stdio: 'inherit',
  });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
