import type { MenuCommand } from './types';

/** A keyboard shortcut of a menu command, in Electron's accelerator syntax (`CmdOrCtrl+[`). */
export interface Shortcut {
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

/** The File menu's shortcuts. */
export const NAVIGATION_SHORTCUTS: readonly Shortcut[] = [
  { label: 'New Project…', command: 'project.new', accelerator: 'CmdOrCtrl+N' },
  { label: 'Projects', command: 'navigate.projects', accelerator: 'CmdOrCtrl+1' },
  { label: 'Downloads', command: 'navigate.downloads', accelerator: 'CmdOrCtrl+2' },
  { label: 'Library', command: 'navigate.library', accelerator: 'CmdOrCtrl+3' },
  { label: 'Settings', command: 'navigate.settings', accelerator: 'CmdOrCtrl+,' },
];

/** The accelerator of a navigation command (the menu shows it; browser mode listens for it). */
export function acceleratorOf(command: MenuCommand): string {
  const found = [...NAVIGATION_SHORTCUTS, ...REVIEW_SHORTCUTS].find((s) => s.command === command);
  if (!found) throw new Error(`No shortcut for ${command}`);
  return found.accelerator;
}

/** The part of a KeyboardEvent an accelerator is matched against (tests need no DOM). */
export interface ShortcutKey {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

const KEY_NAMES: Record<string, string> = { Enter: 'enter', Backspace: 'backspace', ' ': 'space' };

/** True when `event` is `accelerator` (CmdOrCtrl is ⌘ on macOS, Ctrl elsewhere; every modifier must match). */
export function matchesAccelerator(event: ShortcutKey, accelerator: string, mac: boolean): boolean {
  const parts = accelerator.split('+');
  // `CmdOrCtrl++` would name the plus key; no shortcut uses it.
  const key = parts.pop()!.toLowerCase();
  const mods = new Set(parts.map((p) => p.toLowerCase()));
  const primary = mods.has('cmdorctrl');
  if ((mac ? event.metaKey : event.ctrlKey) !== primary) return false;
  if ((mac ? event.ctrlKey : event.metaKey) !== false) return false;
  if (event.shiftKey !== mods.has('shift') || event.altKey !== mods.has('alt')) return false;
  return (KEY_NAMES[event.key] ?? event.key.toLowerCase()) === key;
}

/**
 * The menu command a key press asks for, among the shortcuts with a modifier (the plain transport keys belong to
 * the player's own handler); null for any other key. Browser mode has no native menu: this stands in for it.
 */
export function shortcutCommand(event: ShortcutKey, mac: boolean): MenuCommand | null {
  for (const s of [...NAVIGATION_SHORTCUTS, ...REVIEW_SHORTCUTS]) {
    if (!s.plainKey && matchesAccelerator(event, s.accelerator, mac)) return s.command;
  }
  return null;
}
