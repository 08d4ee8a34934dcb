import { sandboxProcessOf, type SpawnSandbox } from '../../profiles';
import type { ElectronModule } from './types';

/** How long the output of an ended utility process may still be on its way. */
const DRAIN_MS = 1000;

/**
 * The embedded sandbox as an Electron utility process (a Node process Chromium starts and ends with the app; no
 * RunAsNode fuse needed), on the bundled entry out/main/sandbox.js.
 */
export function utilitySandboxSpawner(
  electron: Pick<ElectronModule, 'utilityProcess'>,
  entry: string,
  log: (message: string) => void = () => undefined,
): SpawnSandbox {
  return (args) => {
    const child = electron.utilityProcess.fork(entry, args, {
      stdio: 'pipe',
      serviceName: 'Takedesk Sandbox',
    });
    // A fatal V8 error in the child: 'exit' follows it, but an 'error' no one listens to throws in main.
    child.on('error', (type: string, location: string) =>
      log(`sandbox process error: ${type}${location ? ` at ${location}` : ''}`),
    );
    let exited = false;
    return sandboxProcessOf(child, {
      onExit(listener) {
        child.once('exit', (code: number) => {
          exited = true;
          // Its output comes over pipes of their own and may still be on its way: the last lines say why it ended.
          void drained([child.stdout, child.stderr], DRAIN_MS).then(() => listener(code, null));
        });
      },
      // utilityProcess.kill() is SIGTERM on POSIX (the CLI closes its server and exits) and ends it on Windows.
      terminate: () => void child.kill(),
      kill: () => {
        if (exited) return;
        if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
        else child.kill();
      },
    });
  };
}

/** Resolves once every stream has ended (or closed), or after `ms`. */
function drained(streams: ReadonlyArray<NodeJS.ReadableStream | null>, ms: number): Promise<void> {
  const ends = streams.map((stream) => {
    const readable = stream as
      (NodeJS.ReadableStream & { readableEnded?: boolean; destroyed?: boolean }) | null;
    if (!readable || readable.readableEnded || readable.destroyed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      readable.once('end', resolve);
      readable.once('close', resolve);
    });
  });
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    Promise.all(ends).then(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
  ]).finally(() => clearTimeout(timer));
}
