import { describe, expect, it } from 'vitest';
import { nextShuttleRate, transportCommand, type KeyLike } from './transport-keys';

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
