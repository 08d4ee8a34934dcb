import type { BrowserWindow } from 'electron';

/** Launch switch of the packaged-app smoke test (release workflow): `Takedesk --smoke-test`. */
export const SMOKE_TEST_FLAG = '--smoke-test';

/** The renderer asks main for `app.info` through the preload: a real IPC round trip from the loaded page. */
const ROUND_TRIP = `window.takedesk.app.info().then((r) => r.ok === true && r.value.name === 'Takedesk')`;

/**
 * Exits 0 once the window has loaded the renderer and an IPC round trip through the preload answered, 1 when
 * the page fails to load, the round trip fails, or neither happens within `timeoutMs`.
 */
export function runSmokeTest(
  win: Pick<BrowserWindow, 'webContents'>,
  exit: (code: 0 | 1, reason: string) => void,
  timeoutMs = 60_000,
): void {
  let done = false;
  const finish = (code: 0 | 1, reason: string) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    exit(code, reason);
  };
  const timer = setTimeout(
    () => finish(1, `no renderer and IPC round trip within ${timeoutMs} ms`),
    timeoutMs,
  );
  win.webContents.once('did-fail-load', (_event: unknown, code: number, description: string) =>
    finish(1, `the renderer failed to load (${code} ${description})`),
  );
  win.webContents.once('did-finish-load', () => {
    win.webContents.executeJavaScript(ROUND_TRIP, true).then(
      (ok: unknown) =>
        ok === true
          ? finish(0, 'renderer loaded, IPC round trip answered')
          : finish(1, 'app.info did not answer ok'),
      (error: unknown) => finish(1, `the IPC round trip threw: ${String(error)}`),
    );
  });
}
