import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import type { SandboxServices } from '../app';
import type { MediaDescriptor, SandboxCatalog } from '../engine';
import { audioAdsServices, voiceOverService } from '../sample-bodies';
import { createSandbox, type Sandbox, type SandboxOptions } from '../server';

/** A parsed JSON answer, read loosely in tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary response shapes
export type Loose = any;

/**
 * A request that trusts exactly `ca` (the global fetch cannot take a CA per request): for a sandbox in HTTPS mode.
 */
export function requestWithCa(
  url: string,
  ca: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Headers; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers, ca },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** JSON request against a sandbox (over HTTPS when it has a certificate); returns status and parsed body. */
export async function call(
  sandbox: Pick<Sandbox, 'url' | 'certificate'>,
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown; raw?: string } = {},
): Promise<{ status: number; body: Loose; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (options.token) headers['x-access-token'] = options.token;
  let payload: string | undefined;
  if (options.raw !== undefined) payload = options.raw;
  else if (options.body !== undefined) payload = JSON.stringify(options.body);
  if (payload !== undefined) headers['content-type'] = 'application/json';
  let status: number;
  let responseHeaders: Headers;
  let text: string;
  if (sandbox.certificate) {
    const answer = await requestWithCa(`${sandbox.url}${path}`, sandbox.certificate, {
      method,
      headers,
      ...(payload !== undefined ? { body: payload } : {}),
    });
    ({ status, headers: responseHeaders } = answer);
    text = answer.body.toString('utf8');
  } else {
    const answer = await fetch(`${sandbox.url}${path}`, { method, headers, body: payload });
    ({ status, headers: responseHeaders } = answer);
    text = await answer.text();
  }
  let body: Loose = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status, body, headers: responseHeaders };
}

/** A valid voice over project body. */
export function voiceOverBody(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Spring campaign',
    mainService: 'voice_over',
    fulfillmentType: 'speedy',
    remarks: '',
    services: [voiceOverService()],
    ...overrides,
  };
}

/** A valid audio ads project body. */
export function audioAdsBody(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Radio spot',
    mainService: 'audio_ads',
    remarks: '',
    services: audioAdsServices(),
    ...overrides,
  };
}

/** Simple deterministic stand-ins, for engine tests that must not depend on seed data. */
export function fakeCatalog(): SandboxCatalog {
  return {
    validateOptions: () => ({}),
    priceProject: (body) => {
      const services = body.services.map(() => ({ price: 10, units: 1, unitType: 'words' }));
      return { price: services.length * 10, services };
    },
    talents: (seed, count) =>
      Array.from({ length: count }, (_, i) => ({ id: `${seed}-${i}`, name: `Talent ${i + 1}` })),
  };
}

/** Services with tiny media files, for tests that don't need the real generators. */
export function fakeServices(dir: string): SandboxServices {
  const index = new Map<string, MediaDescriptor>();
  const key = (desc: MediaDescriptor) => {
    const k = createHash('sha256').update(JSON.stringify(desc)).digest('base64url').slice(0, 32);
    index.set(k, desc);
    return k;
  };
  return {
    categories: () => [],
    attributes: () => [],
    attributeValues: () => [],
    tracks: () => [],
    search: () => ({ page: 1, totalPages: 0, total: 0, samples: [] }),
    media: {
      key,
      describe: (k) => index.get(k),
      async ensure(desc) {
        await mkdir(dir, { recursive: true });
        const k = key(desc);
        const path = join(dir, `${k}.${desc.format}`);
        const data = Buffer.alloc(4096, k);
        await writeFile(path, data);
        return { path, size: data.length, etag: `"${k}"`, contentType: 'application/octet-stream' };
      },
    },
  };
}

/** A sandbox on 127.0.0.1:0 with manual delivery. */
export function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  // TAKEDESK_TEST_HTTPS=1 (the vitest project `https`): the same integration tests over the sandbox's HTTPS mode.
  const https = process.env.TAKEDESK_TEST_HTTPS === '1';
  return createSandbox({ delivery: 'manual', https, ...options });
}

/** Whether a process id is still alive (signal 0 checks without sending anything). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
