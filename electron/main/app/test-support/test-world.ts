import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, type Sandbox } from '../../../sandbox/server';
import { startLossyProxy, type LossyProxy } from '../../api/test-support/service-stand-ins';
import { createMemorySettingsStore } from '../../profiles';
import { createMemorySecretStore } from '../../secrets';
import { createServices, type Services, type ServicesOptions } from '../services';

/** The whole main process under Node (browser transport, memory stores) against a fresh manual-delivery sandbox. */
export interface TestWorld {
  dir: string;
  sandbox: Sandbox;
  services: Services;
  /** Where main reaches the sandbox: the recording proxy with `record`, else the sandbox itself. */
  serviceUrl: string;
  /** With `record`: every request that reached the sandbox through main, as "METHOD path?query". */
  requests: string[];
  close(): Promise<void>;
}

export interface TestWorldOptions {
  /** Put a recording proxy between main and the sandbox (its log is `requests`). */
  record?: boolean;
  /**
   * Leave background fetch at the app's default (on). Off unless asked, so a test that counts downloads sees only
   * the ones it started.
   */
  backgroundFetch?: boolean;
}

/**
 * createServices' options for main under Node in tests: browser transport, memory stores, media URLs as plain paths,
 * a desktop that does nothing, no log. Callers add the sandbox (externalSandbox or sandboxDelivery) and overrides.
 */
export function testServicesOptions(dataDir: string, libraryDir: string): ServicesOptions {
  return {
    mode: 'browser',
    dataDir,
    settingsStore: createMemorySettingsStore(),
    secrets: createMemorySecretStore(),
    mediaScheme: { library: (id) => `/media/library/${id}`, remote: (t) => `/media/remote/${t}` },
    desktop: { reveal: () => undefined, startDrag: () => false },
    version: '0.0.0-test',
    libraryDir,
    log: () => undefined,
  };
}

/** For tests: everything lives in a temp folder and on 127.0.0.1, and `close()` removes it all. */
export async function startTestWorld(prefix: string, options: TestWorldOptions = {}): Promise<TestWorld> {
  const dir = await mkdtemp(join(tmpdir(), `takedesk-${prefix}-`));
  const sandbox = await createSandbox({ delivery: 'manual' });
  const proxy: LossyProxy | null = options.record ? await startLossyProxy(sandbox.url) : null;
  const services = await createServices({
    ...testServicesOptions(dir, join(dir, 'Library')),
    externalSandbox: { url: proxy?.url ?? sandbox.url, token: sandbox.tokens.full },
  });
  if (!options.backgroundFetch) await services.settings.set({ backgroundFetch: false });
  return {
    dir,
    sandbox,
    services,
    serviceUrl: proxy?.url ?? sandbox.url,
    requests: proxy?.forwarded ?? [],
    async close() {
      await services.dispose();
      await proxy?.close();
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
