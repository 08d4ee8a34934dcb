import { onBeforeUnmount, onMounted, toValue, type MaybeRefOrGetter } from 'vue';

/** What a key on the transport asks for. */
export type TransportCommand =
  | { kind: 'playPause' }
  | { kind: 'back' }
  | { kind: 'stop' }
  | { kind: 'forward' }
  | { kind: 'seekBy'; seconds: number }
  | { kind: 'start' }
  | { kind: 'end' };

/** The part of a KeyboardEvent the mapping reads (so tests need no DOM). */
export interface KeyLike {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/** The keys that need no modifier, letters in either case: the conventions of NLEs and DAWs (J K L shuttle). */
const KEY_COMMANDS: Readonly<Record<string, TransportCommand>> = {
  ' ': { kind: 'playPause' },
  Spacebar: { kind: 'playPause' },
  j: { kind: 'back' },
  k: { kind: 'stop' },
  l: { kind: 'forward' },
  Home: { kind: 'start' },
  End: { kind: 'end' },
};

/** Maps a key to a transport command; null for keys it leaves alone. Arrows seek 1 s, 5 s with Shift. */
export function transportCommand(event: KeyLike): TransportCommand | null {
  // Shortcuts with modifiers belong to the OS and the browser (copy, tab switching...).
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
    const step = event.shiftKey ? 5 : 1;
    return { kind: 'seekBy', seconds: event.key === 'ArrowLeft' ? -step : step };
  }
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  return Object.hasOwn(KEY_COMMANDS, key) ? { ...KEY_COMMANDS[key]! } : null;
}

/** The key that writes the playhead's time, `[m:ss.t]`, into the revision note at the caret (shown in its hint). */
export const INSERT_TIME_KEY_LABEL = 'Alt+T';

/**
 * Alt+T, by the key's place rather than its letter (macOS's Option+T types "†", other layouts other letters).
 * Not a browser or OS shortcut, and it works while the caret is in the note, where plain keys must type.
 */
export function isInsertTimeKey(event: KeyLike & { code?: string }): boolean {
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
  return event.code === 'KeyT' || event.key.toLowerCase() === 't';
}

/** Shuttle speeds L steps through when pressed again while playing forward. */
export const SHUTTLE_RATES = [1, 1.5, 2, 3] as const;

/** The next forward rate after an L press: start at 1x, then step up, staying at the top speed. */
export function nextShuttleRate(playing: boolean, currentRate: number): number {
  if (!playing) return SHUTTLE_RATES[0];
  const next = SHUTTLE_RATES.find((rate) => rate > currentRate + 1e-9);
  return next ?? SHUTTLE_RATES[SHUTTLE_RATES.length - 1]!;
}

/** True when typing in the target must not be hijacked by the transport. */
export function isEditableTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  // Buttons and checkboxes keep Space for themselves, which is what keyboard users expect.
  return el.closest('input, textarea, select, button, [contenteditable="true"], [role="slider"]') !== null;
}

/**
 * Listens for transport keys on the document while `enabled` is true and focus is not in a field:
 * the review screen's "active player" behaviour. A focused player handles its own keys instead.
 */
export function useGlobalTransportKeys(
  enabled: MaybeRefOrGetter<boolean>,
  run: (command: TransportCommand, event: KeyboardEvent) => void,
): void {
  const onKey = (event: KeyboardEvent): void => {
    if (!toValue(enabled) || event.defaultPrevented || isEditableTarget(event.target)) return;
    const command = transportCommand(event);
    if (!command) return;
    event.preventDefault();
    run(command, event);
  };
  onMounted(() => document.addEventListener('keydown', onKey));
  onBeforeUnmount(() => document.removeEventListener('keydown', onKey));
}
