import { describe, expect, it } from 'vitest';
import { createRouter, type Handlers } from './router';

const ran: string[] = [];
const router = createRouter({
  handlers: new Proxy({} as Handlers, {
    get: (_target, channel) => () => {
      ran.push(String(channel));
      return 'ran';
    },
  }),
});
const invoke = (channel: unknown, input: unknown) => router.invoke(channel, input, { transport: 'browser' });

describe('prototype keys never index the contract or the handlers (issue 13, item 8)', () => {
  it.each([
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'prototype',
    '__defineGetter__',
  ])('channel %s is an unknown channel', async (channel) => {
    const result = await invoke(channel, {});
    expect(result).toMatchObject({ ok: false, error: { type: 'VALIDATION_ERROR' } });
    if (!result.ok) expect(result.error.message).toMatch(/Unknown channel/);
    expect(ran).toEqual([]);
  });

  it('an own __proto__ or constructor key in an input is an unknown field, not a prototype', async () => {
    for (const text of [
      '{"__proto__":{"id":"x"}}',
      '{"id":"p1","__proto__":{"admin":true}}',
      '{"constructor":{}}',
    ]) {
      const result = await invoke('projects.get', JSON.parse(text));
      expect(result).toMatchObject({ ok: false, error: { type: 'VALIDATION_ERROR' } });
    }
    expect(ran).toEqual([]);
  });

  it('prototype keys as ids are just ids (the service answers *_NO_EXIST)', async () => {
    expect(await invoke('projects.get', { id: 'constructor' })).toEqual({ ok: true, value: 'ran' });
    expect(ran).toEqual(['projects.get']);
  });
});
