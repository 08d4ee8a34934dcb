import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue';
import type { Router } from 'vue-router';
import type { ClientApi } from '../../../shared/ipc/api';
import { shortcutCommand } from '../../../shared/ipc/shortcuts';
import type { MenuCommand, UpdateStatus } from '../../../shared/ipc/types';

/** Event name ReviewView listens to for the review actions chosen in the native menu. */
export const REVIEW_COMMAND_EVENT = 'takedesk:review-command';

/** Only project pages may be opened from outside (a takedesk:// link); anything else is ignored. */
export const DEEP_LINK_ROUTE = /^\/projects\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const NAVIGATE: Partial<Record<MenuCommand, string>> = {
  'project.new': '/projects/new',
  'navigate.projects': '/projects',
  'navigate.downloads': '/downloads',
  'navigate.library': '/library',
  'navigate.settings': '/settings',
};

/** Transport commands are the player's own keys, so the menu and the keyboard can never disagree. */
const TRANSPORT_KEYS: Partial<Record<MenuCommand, { key: string; shiftKey?: boolean }>> = {
  'review.playPause': { key: ' ' },
  'review.back': { key: 'j' },
  'review.stop': { key: 'k' },
  'review.forward': { key: 'l' },
  'review.seekBack': { key: 'ArrowLeft' },
  'review.seekForward': { key: 'ArrowRight' },
  'review.seekBackLong': { key: 'ArrowLeft', shiftKey: true },
  'review.seekForwardLong': { key: 'ArrowRight', shiftKey: true },
  'review.start': { key: 'Home' },
  'review.end': { key: 'End' },
};

/** How the page is hosted. */
export interface DesktopCommandOptions {
  /** Where player keys and review commands are dispatched; default `window`. */
  target?: EventTarget;
  /**
   * Browser mode has no native menu: the menu's shortcuts (Ctrl+Enter, Ctrl+[ / ], Ctrl+N...) are read from the
   * keyboard here and run exactly as a menu click would. Off in Electron, where the menu's accelerators fire.
   */
  keyboard?: boolean;
  /** ⌘ instead of Ctrl for CmdOrCtrl. */
  mac?: boolean;
}

/**
 * What the desktop edge sends (native menu, takedesk:// links, the updater) turned into routes, player keys and
 * review actions. In browser mode the same commands come from the keyboard (`keyboard`).
 */
export function useDesktopCommands(
  api: ClientApi,
  router: Router,
  options: DesktopCommandOptions = {},
): { update: Ref<UpdateStatus | null> } {
  const target = options.target ?? window;
  const update = ref<UpdateStatus | null>(null);

  /** One path for every menu command, from the native menu or (browser mode) from its shortcut. */
  function run(command: MenuCommand): void {
    const path = NAVIGATE[command];
    if (path) return void router.push(path);
    const key = TRANSPORT_KEYS[command];
    if (key) return void target.dispatchEvent(new KeyboardEvent('keydown', { ...key, bubbles: true }));
    if (command === 'updates.check') return void api.updates.check().then((s) => (update.value = s));
    if (command === 'updates.install') return void api.updates.install();
    target.dispatchEvent(new CustomEvent(REVIEW_COMMAND_EVENT, { detail: command }));
  }

  const disposers = [
    api.on('app.navigate', ({ route }) => {
      if (DEEP_LINK_ROUTE.test(route)) void router.push(route);
    }),
    api.on('menu.command', ({ command }) => run(command)),
    api.on('updates.status', (status) => (update.value = status)),
  ];
  if (options.keyboard) {
    const onKey = (event: Event): void => {
      const command = shortcutCommand(event as KeyboardEvent, options.mac ?? false);
      if (!command) return;
      // Chromium's own Ctrl+[ / ] and Ctrl+1..3 must not run as well.
      event.preventDefault();
      run(command);
    };
    target.addEventListener('keydown', onKey);
    disposers.push(() => target.removeEventListener('keydown', onKey));
  }
  void api.updates
    .status()
    .then((status) => (update.value = status))
    .catch(() => undefined);
  onBeforeUnmount(() => disposers.splice(0).forEach((dispose) => dispose()));
  return { update };
}

/** Lets a screen (the review) act on the review commands of the native menu while it is mounted. */
export function onReviewCommand(handler: (command: MenuCommand) => void, target: EventTarget = window): void {
  const listener = (event: Event) => handler((event as CustomEvent<MenuCommand>).detail);
  onMounted(() => target.addEventListener(REVIEW_COMMAND_EVENT, listener));
  onBeforeUnmount(() => target.removeEventListener(REVIEW_COMMAND_EVENT, listener));
}
