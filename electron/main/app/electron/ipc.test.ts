import { describe, expect, it } from 'vitest';
import { IPC_INVOKE } from '../../../../shared/ipc/channels';
import { createRouter, type Handlers } from '../ipc/router';
import { createFakeElectron } from './test-support/fake-electron';
import { attachIpc } from './ipc';
import type { ElectronModule } from './types';

/** The Electron transport end to end with the fake electron: the real router behind `takedesk:invoke`. */
function setup() {
  const { electron, record } = createFakeElectron();
  const ran: string[] = [];
  const handlers = new Proxy({} as Handlers, {
    get: (_target, channel) => () => {
      ran.push(String(channel));
      return 'ran';
    },
  });
  attachIpc(electron as unknown as ElectronModule, createRouter({ handlers }));
  const invoke = (channel: unknown, input: unknown) =>
    record.ipcHandlers.get(IPC_INVOKE)!(
      { senderFrame: { url: 'app://takedesk/index.html', parent: null } },
      channel,
      input,
    ) as Promise<{ ok: boolean; value?: unknown; error?: { type: string; message: string } }>;
  return { invoke, ran };
}

describe('Electron IPC bounds an input before validating it (issue 13, item 6)', () => {
  it('a 3 MB input answers VALIDATION_ERROR and never reaches the handler', async () => {
    const { invoke, ran } = setup();
    const result = await invoke('projects.create', { body: { title: 'x'.repeat(3 * 1024 * 1024) } });
    expect(result).toMatchObject({ ok: false, error: { type: 'VALIDATION_ERROR' } });
    expect(result.error!.message).toMatch(/too large/);
    expect(ran).toEqual([]);
  });

  it('many small values adding up past the limit are refused too', async () => {
    const { invoke, ran } = setup();
    const services = Array.from({ length: 300_000 }, (_, i) => ({ n: i }));
    const result = await invoke('projects.quote', { body: { services } });
    expect(result).toMatchObject({ ok: false, error: { type: 'VALIDATION_ERROR' } });
    expect(ran).toEqual([]);
  });

  it('deep nesting and cycles (structured clone allows both) answer VALIDATION_ERROR, not INTERNAL', async () => {
    const { invoke, ran } = setup();
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(await invoke('projects.create', { body: deep })).toMatchObject({
      ok: false,
      error: { type: 'VALIDATION_ERROR' },
    });
    const cyclic: Record<string, unknown> = { title: 't' };
    cyclic.self = cyclic;
    expect(await invoke('projects.create', { body: cyclic })).toMatchObject({
      ok: false,
      error: { type: 'VALIDATION_ERROR' },
    });
    expect(ran).toEqual([]);
  });

  it('an ordinary input still runs', async () => {
    const { invoke, ran } = setup();
    expect(await invoke('projects.create', { body: { title: 'Spot', remarks: 'y'.repeat(10_000) } })).toEqual(
      {
        ok: true,
        value: 'ran',
      },
    );
    expect(ran).toEqual(['projects.create']);
  });
});
