import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import {
  buildMenuTemplate,
  MENU_COMMANDS,
  REVIEW_SHORTCUTS,
  type MenuCommand,
  type MenuOptions,
} from './menu';

function build(overrides: Partial<MenuOptions> = {}) {
  const sent: MenuCommand[] = [];
  const template = buildMenuTemplate({
    platform: 'linux',
    appName: 'Takedesk',
    dev: false,
    updateReady: false,
    send: (c) => sent.push(c),
    showAbout: () => undefined,
    openLogs: () => undefined,
    ...overrides,
  });
  return { template, sent };
}

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flatten(i.submenu) : [])]);
}

const review = (t: MenuItemConstructorOptions[]) =>
  t.find((m) => m.label?.replace('&', '') === 'Review')!.submenu as MenuItemConstructorOptions[];

describe('application menu', () => {
  it.each(['linux', 'win32'] as const)(
    'on %s shows every review shortcut; plain keys are displayed but not registered',
    (platform) => {
      const { template, sent } = build({ platform });
      const items = review(template);
      expect(items).toHaveLength(REVIEW_SHORTCUTS.length);
      for (const [i, s] of REVIEW_SHORTCUTS.entries()) {
        expect(items[i]!.accelerator).toBe(s.accelerator);
        expect(items[i]!.registerAccelerator).toBe(s.plainKey ? false : undefined);
      }
      for (const item of items) (item.click as () => void)();
      expect(sent).toEqual(REVIEW_SHORTCUTS.map((s) => s.command));
    },
  );

  it('on macOS plain keys go into the label (no accelerator that would eat typing), and there is an app menu', () => {
    const { template } = build({ platform: 'darwin' });
    expect(template[0]!.label).toBe('Takedesk');
    const play = review(template)[0]!;
    expect(play.label).toBe('Play / Pause (Space)');
    expect(play.accelerator).toBeUndefined();
    expect(review(template).find((i) => i.label === 'Approve')!.accelerator).toBe('CmdOrCtrl+Enter');
  });

  it('accelerators are unique and every command is a known one', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const items = flatten(build({ platform }).template);
      const accelerators = items.map((i) => i.accelerator).filter(Boolean);
      expect(new Set(accelerators).size, platform).toBe(accelerators.length);
    }
    const { template, sent } = build();
    for (const item of flatten(template)) if (item.click && !item.role) (item.click as () => void)();
    for (const command of sent) expect(MENU_COMMANDS).toContain(command);
  });

  it('developer tools and reload exist only in dev builds', () => {
    const roles = (dev: boolean) => flatten(build({ dev }).template).map((i) => i.role);
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(false)).not.toContain('reload');
    expect(roles(true)).toContain('toggleDevTools');
  });

  it('offers "Restart to Update" once an update is ready', () => {
    const labels = (updateReady: boolean) => flatten(build({ updateReady }).template).map((i) => i.label);
    expect(labels(false)).toContain('Check for Updates…');
    expect(labels(true)).toContain('Restart to Update');
    const { template, sent } = build({ updateReady: true });
    (flatten(template).find((i) => i.label === 'Restart to Update')!.click as () => void)();
    expect(sent).toEqual(['updates.install']);
  });
});
