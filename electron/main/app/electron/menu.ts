import type { MenuItemConstructorOptions } from 'electron';

import {
  acceleratorOf,
  NAVIGATION_SHORTCUTS,
  REVIEW_SHORTCUTS,
  type Shortcut,
} from '../../../../shared/ipc/shortcuts';
import { MENU_COMMANDS, type MenuCommand } from '../../../../shared/ipc/types';

/** What a menu click asks the renderer to do (the `menu.command` event); the list lives in shared/ipc. */
export { MENU_COMMANDS, type MenuCommand };
/** The shortcut tables live in shared/ipc, so browser mode answers the same keys (one list). */
export { NAVIGATION_SHORTCUTS, REVIEW_SHORTCUTS };

export interface MenuOptions {
  platform: NodeJS.Platform;
  appName: string;
  /** Dev builds get reload and the developer tools; packaged builds never do (security checklist: no devtools). */
  dev: boolean;
  /** Whether a downloaded update waits for a restart (shows "Restart to Update"). */
  updateReady: boolean;
  send(command: MenuCommand): void;
  showAbout(): void;
  openLogs(): void;
}

/** The application menu as a template (pure: tested without Electron; app.ts builds it with Menu). */
export function buildMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const item = (label: string, command: MenuCommand, accelerator?: string): MenuItemConstructorOptions => ({
    label,
    ...(accelerator ? { accelerator } : {}),
    click: () => options.send(command),
  });
  const shortcut = (s: Shortcut): MenuItemConstructorOptions => {
    if (!s.plainKey) return item(s.label, s.command, s.accelerator);
    // macOS has no registerAccelerator:false, so the key goes into the label instead of stealing typing.
    if (mac) return item(`${s.label} (${s.accelerator.replace('Shift+', '⇧')})`, s.command);
    return { ...item(s.label, s.command, s.accelerator), registerAccelerator: false };
  };
  const update: MenuItemConstructorOptions = options.updateReady
    ? { label: 'Restart to Update', click: () => options.send('updates.install') }
    : { label: 'Check for Updates…', click: () => options.send('updates.check') };
  const about: MenuItemConstructorOptions = { label: `About ${options.appName}`, click: options.showAbout };
  const settings = item(
    mac ? 'Settings…' : 'Settings',
    'navigate.settings',
    acceleratorOf('navigate.settings'),
  );
  const nav = (command: MenuCommand): MenuItemConstructorOptions => {
    const s = NAVIGATION_SHORTCUTS.find((n) => n.command === command)!;
    return item(s.label, s.command, s.accelerator);
  };

  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: options.appName,
      submenu: [
        about,
        update,
        { type: 'separator' },
        settings,
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push({
    label: mac ? 'File' : '&File',
    submenu: [
      nav('project.new'),
      { type: 'separator' },
      nav('navigate.projects'),
      nav('navigate.downloads'),
      nav('navigate.library'),
      ...(mac ? [] : [{ type: 'separator' } as const, settings]),
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  });
  template.push({
    label: mac ? 'Edit' : '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  });
  template.push({
    label: mac ? 'View' : '&View',
    submenu: [
      ...(options.dev
        ? [{ role: 'reload' } as const, { role: 'toggleDevTools' } as const, { type: 'separator' } as const]
        : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  });
  template.push({ label: mac ? 'Review' : '&Review', submenu: REVIEW_SHORTCUTS.map(shortcut) });
  if (mac) template.push({ role: 'windowMenu' });
  template.push({
    role: 'help',
    label: mac ? 'Help' : '&Help',
    submenu: [
      { label: 'Show Log Files', click: options.openLogs },
      ...(mac ? [] : [{ type: 'separator' } as const, update, about]),
    ],
  });
  return template;
}
