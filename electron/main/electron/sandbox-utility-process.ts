import { sandboxProcessOf, type SpawnSandbox } from '../sandbox-launcher';
import type { ElectronModule } from './types';

/**
 * The embedded sandbox as an Electron utility process (a Node process Chromium starts and ends with the app; no
 * RunAsNode fuse needed), on the bundled entry out/main/sandbox.js.
 */
export function utilitySandboxSpawner(
  electron: Pick<ElectronModule, 'utilityProcess'>,
  entry: string,
): SpawnSandbox {
  return (args) => {
    const child = electron.utilityProcess.fork(entry, args, {
      stdio: 'pipe',
      serviceName: 'Takedesk Sandbox',
    });
    let exited = false;
    return sandboxProcessOf(child, {
      onExit(listener) {
        child.once('exit', (code: number) => {
          exited = true;
          listener(code, null);
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
