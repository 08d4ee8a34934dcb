import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { request as httpsRequest } from 'node:https';
import { SESSION_FILE } from './global-setup';

export interface Session {
  /** The launch URL, `<origin>/open#s=<secret>`; `${appUrl}#/route` opens the app at that route. */
  appUrl: string;
  origin: string;
  sandboxUrl: string;
  /** The sandbox's certificate when it serves HTTPS (TAKEDESK_E2E_HTTPS=1). */
  certificate?: string;
  tokens: { full: string; noScopes: string; otherUser: string };
  work: string;
  dataDir: string;
  libraryDir: string;
  /** serve.ts's own control server (stop/start the sandbox). */
  controlUrl: string;
}

/** A request trusting exactly `ca` (the sandbox's certificate): the global fetch cannot take a CA per request. */
function requestWithCa(
  url: string,
  ca: string,
  options: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: options.method, headers: options.headers, ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Talks to the sandbox's control routes (/_sandbox/...), as a test would in place of the real creatives. */
export class SandboxControl {
  constructor(private readonly session: Session) {}

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const url = `${this.session.sandboxUrl}${path}`;
    const headers = { 'x-access-token': this.session.tokens.full, 'content-type': 'application/json' };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const { certificate } = this.session;
    const res = certificate
      ? await requestWithCa(url, certificate, { method, headers, ...(payload ? { body: payload } : {}) })
      : await fetch(url, { method, headers, body: payload }).then(async (r) => ({
          status: r.status,
          body: Buffer.from(await r.arrayBuffer()),
        }));
    const text = res.body.toString('utf8');
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
    return res.status === 204 ? null : (JSON.parse(text) as unknown);
  }

  /** All pending work (first deliveries and revisions) arrives now. */
  deliver(projectId?: string): Promise<{ delivered: number }> {
    return this.call('POST', '/_sandbox/deliver', projectId ? { projectId } : {}) as Promise<{
      delivered: number;
    }>;
  }

  /** Every token issued by sign-in expires now, as a live token does after its lifetime. */
  expireSessions(): Promise<{ expired: number }> {
    return this.call('POST', '/_sandbox/sessions/expire', {}) as Promise<{ expired: number }>;
  }

  talentAway(deliverableId: string, until: string) {
    return this.call('POST', `/_sandbox/deliverables/${deliverableId}/talent-away`, { until });
  }

  /** Stops the sandbox (the service goes away: connection refused), for offline specs. */
  async stop(): Promise<void> {
    const res = await fetch(`${this.session.controlUrl}/sandbox/stop`, { method: 'POST' });
    if (!res.ok) throw new Error(`stopping the sandbox -> ${res.status} ${await res.text()}`);
  }

  /** Starts the sandbox again on the same URL with the same state (no-op when it runs). */
  async start(): Promise<void> {
    const res = await fetch(`${this.session.controlUrl}/sandbox/start`, { method: 'POST' });
    if (!res.ok) throw new Error(`starting the sandbox -> ${res.status} ${await res.text()}`);
  }

  /** Restarts the app's main process (its services) on the same data folder, behind the same URL; reload the page. */
  async restartApp(): Promise<void> {
    const res = await fetch(`${this.session.controlUrl}/app/restart`, { method: 'POST' });
    if (!res.ok) throw new Error(`restarting the app -> ${res.status} ${await res.text()}`);
  }

  /** Calls the service directly, as the app's own user (to prepare state a spec does not exercise in the UI). */
  api(method: string, path: string, body?: unknown) {
    return this.call(method, path, body);
  }
}

interface Fixtures {
  session: Session;
  sandbox: SandboxControl;
  app: Page;
  /** A second app whose sandbox answers in the live service's shapes (started on first use; live-shapes spec). */
  liveSession: Session;
  liveSandbox: SandboxControl;
  liveApp: Page;
}

/**
 * The launch URL (`/open#s=<secret>`) leading to `route` (a hash route such as `#/projects/1`, or the hash of
 * another tab's URL). A new tab has its own empty sessionStorage, so a second window opens from the launch URL as a
 * producer's would from the printed one; the page moves the secret out of the address bar and shows `route`.
 */
export function appUrlAt(session: Pick<Session, 'appUrl'>, route: string): string {
  return `${session.appUrl}${route.startsWith('#') ? route : `#${route}`}`;
}

/** Opens the app at `url` and fails the test on any CSP violation seen meanwhile. */
async function openApp(page: Page, url: string, use: (page: Page) => Promise<void>): Promise<void> {
  const violations: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber} ${event.sample}`,
      );
    });
  });
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|CSP violation/i.test(text)) violations.push(text);
  });
  await page.goto(url);
  await use(page);
  expect(violations, 'CSP violations during the test').toEqual([]);
}

/** Every page records CSP violations and console errors; a spec that triggers one fails (issue 7, item 4). */
export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  session: async ({}, use) => {
    await use(JSON.parse(readFileSync(SESSION_FILE, 'utf8')) as Session);
  },
  sandbox: async ({ session }, use) => {
    await use(new SandboxControl(session));
  },
  app: async ({ page, session }, use) => {
    await openApp(page, session.appUrl, use);
  },
  liveSession: async ({ session }, use) => {
    const res = await fetch(`${session.controlUrl}/live/start`, { method: 'POST' });
    if (!res.ok) throw new Error(`starting the live-shapes world -> ${res.status} ${await res.text()}`);
    const live = (await res.json()) as Pick<Session, 'appUrl' | 'origin' | 'sandboxUrl' | 'tokens'>;
    await use({ ...session, ...live });
  },
  liveSandbox: async ({ liveSession }, use) => {
    await use(new SandboxControl(liveSession));
  },
  liveApp: async ({ page, liveSession }, use) => {
    await openApp(page, liveSession.appUrl, use);
  },
});

export { expect };

/** Saves a screenshot of the screen for the run's record (e2e/artifacts/screens). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    path: join(import.meta.dirname, 'artifacts', 'screens', `${name}.png`),
    fullPage: false,
  });
}

/** axe-core on the current screen: no serious or critical violations. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // preload off: axe copies shadow-root stylesheets (wavesurfer's) into <style> elements without our CSP nonce,
  // which the CSP check would blame on the app. Only css-orientation-lock needs the preloaded CSSOM.
  const results = await new AxeBuilder({ page }).options({ preload: false }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map(
      (v) =>
        `${screen}: ${v.id} (${v.impact}) ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    ),
  ).toEqual([]);
}

/**
 * The record of a changed screen: screenshots at 1024 and 1440 px wide, in light and dark (the OS preference the
 * app follows by default), each one checked by axe. Leaves the page dark at its former size, as specs expect.
 */
export async function captureScreens(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const width of [1024, 1440]) {
    await page.setViewportSize({ width, height: 860 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      // On a loaded machine the page may still paint the other scheme when emulateMedia returns: axe then read a
      // button in one scheme against a background in the other (color-contrast at random, three specs in one run).
      // Wait until the page itself sees the scheme, and two frames have been painted with it.
      await page.waitForFunction(
        (scheme) => matchMedia(`(prefers-color-scheme: ${scheme})`).matches,
        colorScheme,
      );
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await expectAccessible(page, `${name} at ${width} px, ${colorScheme}`);
      await screenshot(page, `${name}-${width}-${colorScheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  if (original) await page.setViewportSize(original);
}
