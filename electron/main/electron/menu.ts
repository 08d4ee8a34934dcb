import type { MenuItemConstructorOptions } from 'electron';

import { MENU_COMMANDS, type MenuCommand } from '../../../shared/ipc/types';

/** What a menu click asks the renderer to do (the `menu.command` event); the list lives in shared/ipc. */
export { MENU_COMMANDS, type MenuCommand };

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

interface Shortcut {
  label: string;
  command: MenuCommand;
  accelerator: string;
  /**
   * The review transport keys (Space, J/K/L, arrows, Home/End) have no modifier: registered as menu accelerators
   * they would fire while typing in a text field. They are shown in the menu, but the renderer's own key handler
   * (which skips fields) does the work.
   */
  plainKey?: boolean;
}

/** The review shortcuts, the same keys as renderer/src/composables/transport-keys.ts, plus review actions. */
export const REVIEW_SHORTCUTS: readonly Shortcut[] = [
  { label: 'Play / Pause', command: 'review.playPause', accelerator: 'Space', plainKey: true },
  { label: 'Shuttle Back', command: 'review.back', accelerator: 'J', plainKey: true },
  { label: 'Stop', command: 'review.stop', accelerator: 'K', plainKey: true },
  { label: 'Shuttle Forward', command: 'review.forward', accelerator: 'L', plainKey: true },
  { label: 'Back 1 Second', command: 'review.seekBack', accelerator: 'Left', plainKey: true },
  { label: 'Forward 1 Second', command: 'review.seekForward', accelerator: 'Right', plainKey: true },
  { label: 'Back 5 Seconds', command: 'review.seekBackLong', accelerator: 'Shift+Left', plainKey: true },
  {
    label: 'Forward 5 Seconds',
    command: 'review.seekForwardLong',
    accelerator: 'Shift+Right',
    plainKey: true,
  },
  { label: 'Go to Start', command: 'review.start', accelerator: 'Home', plainKey: true },
  { label: 'Go to End', command: 'review.end', accelerator: 'End', plainKey: true },
  { label: 'Approve', command: 'review.approve', accelerator: 'CmdOrCtrl+Enter' },
  { label: 'Reject…', command: 'review.reject', accelerator: 'CmdOrCtrl+Shift+Backspace' },
  { label: 'Request Revision…', command: 'review.revision', accelerator: 'CmdOrCtrl+Shift+E' },
  { label: 'Previous Version', command: 'review.previousVersion', accelerator: 'CmdOrCtrl+[' },
  { label: 'Next Version', command: 'review.nextVersion', accelerator: 'CmdOrCtrl+]' },
];

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
  const settings = item(mac ? 'Settings…' : 'Settings', 'navigate.settings', 'CmdOrCtrl+,');

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
      item('New Project…', 'project.new', 'CmdOrCtrl+N'),
      { type: 'separator' },
      item('Projects', 'navigate.projects', 'CmdOrCtrl+1'),
      item('Downloads', 'navigate.downloads', 'CmdOrCtrl+2'),
      item('Library', 'navigate.library', 'CmdOrCtrl+3'),
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
