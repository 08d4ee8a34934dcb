import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Newest modification time of any file below the given folders (skipping tests), to decide on a rebuild. */
export function findNewestMtime(dirs: string[]): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!entry.name.includes('.test.')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of dirs) {
    try {
      walk(dir);
    } catch {
      // A folder that does not exist has nothing newer.
    }
  }
  return newest;
}
