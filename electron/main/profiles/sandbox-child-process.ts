import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sandboxProcessOf, type SpawnSandbox } from './sandbox-launcher';
import { resolveBundledFile } from '../kernel/workers';

/** The sandbox program: electron/sandbox/cli.ts from source (vitest, tsx), out/main/sandbox.js in the bundle. */
export function resolveSandboxEntry(from: string = import.meta.url): URL | null {
  return resolveBundledFile({ source: '../../sandbox/cli.ts', bundled: 'sandbox.js' }, from);
}

/**
 * Browser mode and tests: the sandbox as a child process of this Node (Electron uses its utilityProcess instead,
 * electron/main/app/electron/sandbox-utility-process.ts). From source it runs through tsx's loader. The IPC channel is its
 * lifeline: when this process stops or dies the channel closes and the sandbox exits (cli.ts).
 */
export function nodeSandboxSpawner(entry: URL | null = resolveSandboxEntry()): SpawnSandbox {
  return (args) => {
    if (!entry) throw new Error('out/main/sandbox.js is missing (run `npm run build`)');
    const path = fileURLToPath(entry);
    const execArgv = path.endsWith('.ts') ? ['--import', tsxLoader()] : [];
    const child = fork(path, args, { execArgv, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let exitListener: ((code: number | null, signal: string | null) => void) | null = null;
    let ended: { code: number | null; signal: string | null } | null = null;
    const end = (code: number | null, signal: string | null) => {
      if (ended) return;
      ended = { code, signal };
      exitListener?.(code, signal);
    };
    child.once('exit', (code, signal) => end(code, signal));
    // A process that could not be spawned emits only 'error'.
    child.once('error', () => {
      if (child.pid === undefined) end(null, null);
    });
    return sandboxProcessOf(child, {
      onExit(listener) {
        exitListener = listener;
        if (ended) listener(ended.code, ended.signal);
      },
      // Closing the channel is the sandbox's cue to close its server and exit, on every OS.
      terminate: () => (child.connected ? child.disconnect() : void child.kill('SIGTERM')),
      kill: () => void child.kill('SIGKILL'),
    });
  };
}

/** tsx's loader, resolved from here so the child finds it whatever its working directory. */
function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}
