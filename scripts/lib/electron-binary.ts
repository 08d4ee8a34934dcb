import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The Electron binary, which the `electron` package fetches from outside the npm registry on first use; where it
 * never arrived (ELECTRON_SKIP_BINARY_DOWNLOAD, no network), why not.
 */
export function electronBinary(): { path: string } | { missing: string } {
  try {
    const require = createRequire(import.meta.url);
    const pkgDir = dirname(require.resolve('electron/package.json'));
    const pathFile = join(pkgDir, 'path.txt');
    if (!existsSync(pathFile))
      return { missing: 'the Electron binary was not downloaded (no node_modules/electron/path.txt)' };
    const binary = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? { path: binary } : { missing: `${binary} does not exist` };
  } catch (error) {
    return { missing: `the electron package is not installed (${(error as Error).message})` };
  }
}
