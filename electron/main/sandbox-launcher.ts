import { join } from 'node:path';
import { createSandbox, type Sandbox } from '../sandbox/server';
import type { SandboxConnection, SandboxLauncher } from './profiles';

/**
 * The Sandbox profile's service: started on first use on a free loopback port, its state kept under the app's
 * data folder so projects survive a restart. An external sandbox (tests, `npm run sandbox`) can stand in.
 */
export function createSandboxLauncher(options: {
  dataDir: string;
  external?: SandboxConnection;
  delivery?: 'manual' | number;
  /** Serve the embedded sandbox over HTTPS (its certificate is then the one the Sandbox profile trusts). */
  https?: boolean;
}): SandboxLauncher & { close(): Promise<void> } {
  let starting: Promise<Sandbox> | undefined;
  return {
    async ensure() {
      if (options.external) return options.external;
      starting ??= createSandbox({
        dataDir: join(options.dataDir, 'sandbox'),
        delivery: options.delivery,
        https: options.https,
      }).catch((error: unknown) => {
        starting = undefined; // a failed start may be retried on the next call
        throw error;
      });
      const sandbox = await starting;
      return {
        url: sandbox.url,
        token: sandbox.tokens.full,
        ...(sandbox.certificate ? { certificate: sandbox.certificate } : {}),
      };
    },
    async close() {
      if (starting) await (await starting).close();
    },
  };
}
