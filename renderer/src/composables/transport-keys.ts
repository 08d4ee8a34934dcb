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

/** Maps a key to a transport command, the conventions of NLEs and DAWs; null for keys it leaves alone. */
export function transportCommand(event: KeyLike): TransportCommand | null {
  // Shortcuts with modifiers belong to the OS and the browser (copy, tab switching...).
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  switch (event.key) {
    case ' ':
    case 'Spacebar':
      return { kind: 'playPause' };
    case 'j':
    case 'J':
      return { kind: 'back' };
    case 'k':
    case 'K':
      return { kind: 'stop' };
    case 'l':
    case 'L':
      return { kind: 'forward' };
    case 'ArrowLeft':
      return { kind: 'seekBy', seconds: event.shiftKey ? -5 : -1 };
    case 'ArrowRight':
      return { kind: 'seekBy', seconds: event.shiftKey ? 5 : 1 };
    case 'Home':
      return { kind: 'start' };
    case 'End':
      return { kind: 'end' };
    default:
      return null;
  }
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
