import { describe, expect, it } from 'vitest';
import { matchesAccelerator, shortcutCommand, type ShortcutKey } from './shortcuts';

const key = (k: string, mods: Partial<ShortcutKey> = {}): ShortcutKey => ({
  key: k,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

describe('shortcutCommand', () => {
  it.each([
    [key('Enter', { ctrlKey: true }), false, 'review.approve'],
    [key('Enter', { metaKey: true }), true, 'review.approve'],
    [key('Enter', { ctrlKey: true }), true, null],
    [key('[', { ctrlKey: true }), false, 'review.previousVersion'],
    [key(']', { ctrlKey: true }), false, 'review.nextVersion'],
    [key('Backspace', { ctrlKey: true, shiftKey: true }), false, 'review.reject'],
    [key('E', { ctrlKey: true, shiftKey: true }), false, 'review.revision'],
    [key('e', { ctrlKey: true }), false, null],
    [key('n', { ctrlKey: true }), false, 'project.new'],
    [key(',', { ctrlKey: true }), false, 'navigate.settings'],
    [key('Enter', { ctrlKey: true, altKey: true }), false, null],
    [key('Enter', { ctrlKey: true, metaKey: true }), false, null],
    // The plain transport keys are the player's, never a menu command here.
    [key(' '), false, null],
    [key('j'), false, null],
  ])('%j (mac %s) -> %s', (event, mac, command) => {
    expect(shortcutCommand(event, mac)).toBe(command);
  });

  it('matches named keys and single characters case-insensitively', () => {
    expect(
      matchesAccelerator(
        key('Backspace', { metaKey: true, shiftKey: true }),
        'CmdOrCtrl+Shift+Backspace',
        true,
      ),
    ).toBe(true);
    expect(matchesAccelerator(key('Home'), 'Home', false)).toBe(true);
  });
});
