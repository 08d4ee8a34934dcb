import { describe, expect, it } from 'vitest';
import { isInsertTimeKey, nextShuttleRate, transportCommand, type KeyLike } from './transport-keys';

const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({
  key: k,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

describe('transportCommand', () => {
  it.each([
    [key(' '), { kind: 'playPause' }],
    [key('j'), { kind: 'back' }],
    [key('K'), { kind: 'stop' }],
    [key('l'), { kind: 'forward' }],
    [key('ArrowLeft'), { kind: 'seekBy', seconds: -1 }],
    [key('ArrowRight', { shiftKey: true }), { kind: 'seekBy', seconds: 5 }],
    [key('ArrowLeft', { shiftKey: true }), { kind: 'seekBy', seconds: -5 }],
    [key('Home'), { kind: 'start' }],
    [key('End'), { kind: 'end' }],
    [key('Spacebar'), { kind: 'playPause' }],
    [key('J', { shiftKey: true }), { kind: 'back' }],
    [key('x'), null],
    [key('constructor'), null],
    [key('end'), null],
    [key('l', { ctrlKey: true }), null],
    [key(' ', { metaKey: true }), null],
  ])('%j -> %j', (event, command) => {
    expect(transportCommand(event)).toEqual(command);
  });
});

describe('nextShuttleRate', () => {
  it('starts at 1x when stopped and steps up while playing, capped at 3x', () => {
    expect(nextShuttleRate(false, 2)).toBe(1);
    expect(nextShuttleRate(true, 1)).toBe(1.5);
    expect(nextShuttleRate(true, 1.5)).toBe(2);
    expect(nextShuttleRate(true, 2)).toBe(3);
    expect(nextShuttleRate(true, 3)).toBe(3);
  });
});

describe('isInsertTimeKey', () => {
  const at = (k: string, code: string, mods: Partial<KeyLike> = {}) => ({ ...key(k, mods), code });
  it.each([
    ['Alt+T', at('t', 'KeyT', { altKey: true }), true],
    ['Option+T on macOS (types †)', at('†', 'KeyT', { altKey: true }), true],
    ['a plain t, typed in the note', at('t', 'KeyT'), false],
    ['Ctrl+Alt+T (a terminal on Linux desktops)', at('t', 'KeyT', { altKey: true, ctrlKey: true }), false],
    ['Alt+Shift+T', at('T', 'KeyT', { altKey: true, shiftKey: true }), false],
    ['Alt+R', at('r', 'KeyR', { altKey: true }), false],
  ])('%s', (_name, event, expected) => {
    expect(isInsertTimeKey(event)).toBe(expected);
  });
});
