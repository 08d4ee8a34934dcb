// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { createFakeApi, serviceError, withApi } from './fake-api.test-util';
import { isNextKey, isPreviousKey, isTypingTarget, NOTHING_NEXT, useReviewFlowStore } from './review-flow';

describe('review flow: "Next needing review"', () => {
  it('asks main for the take after the one on screen and gives its review link', async () => {
    const { api, calls } = createFakeApi({
      'projects.nextReady': () => ({ projectId: 'p 2', deliverableId: 'd2' }),
    });
    const flow = withApi(api, () => useReviewFlowStore());
    expect(await flow.nextLink('d1')).toBe('/review/d2?projectId=p%202');
    expect(calls).toEqual([{ channel: 'projects.nextReady', input: { after: 'd1' } }]);
    expect(flow.note).toBe('');
  });

  it('says so when nothing else waits', async () => {
    const { api } = createFakeApi({ 'projects.nextReady': () => null });
    const flow = withApi(api, () => useReviewFlowStore());
    expect(await flow.nextLink('d1')).toBeNull();
    expect(flow.note).toBe(NOTHING_NEXT);
  });

  it('N alone is the key; with a modifier it is not', () => {
    const key = (
      k: string,
      mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {},
    ) => ({
      key: k,
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      shiftKey: false,
      ...mods,
    });
    expect(isNextKey(key('n'))).toBe(true);
    expect(isNextKey(key('N'))).toBe(true);
    expect(isNextKey(key('n', { ctrlKey: true }))).toBe(false);
    expect(isNextKey(key('n', { shiftKey: true }))).toBe(false);
    expect(isNextKey(key('m'))).toBe(false);
    expect(isPreviousKey(key('N', { shiftKey: true }))).toBe(true);
    expect(isPreviousKey(key('n'))).toBe(false);
  });

  it('approves a take from the list with what the list showed', async () => {
    const { api, calls } = createFakeApi({
      'deliverables.approve': () => ({
        id: 'd1',
        serviceSubCategory: 'voice_over',
        name: '1',
        status: 'approved',
      }),
    });
    const flow = withApi(api, () => useReviewFlowStore());
    expect(await flow.approveFromList('p1', { id: 'd1', status: 'reviewable' })).toBe('approved');
    expect(calls).toEqual([
      {
        channel: 'deliverables.approve',
        input: { id: 'd1', heard: { status: 'reviewable', projectId: 'p1' } },
      },
    ]);
  });

  it('asks for the previous take with back', async () => {
    const { api, calls } = createFakeApi({
      'projects.nextReady': () => ({ projectId: 'p1', deliverableId: 'd0' }),
    });
    const flow = withApi(api, () => useReviewFlowStore());
    expect(await flow.nextLink('d1', true)).toBe('/review/d0?projectId=p1');
    expect(calls).toEqual([{ channel: 'projects.nextReady', input: { after: 'd1', back: true } }]);
  });

  it('N in a field is a letter; on a focused button it still means next', () => {
    const input = document.createElement('input');
    const button = document.createElement('button');
    expect(isTypingTarget(input)).toBe(true);
    expect(isTypingTarget(button)).toBe(false);
    expect(isTypingTarget(document.body)).toBe(false);
  });
});

describe('review flow: a rejection or revision from the project page list', () => {
  const take = { id: 'd1', status: 'reviewable' };

  it('decides on the newest version the app can load: the take itself is version 1 when none were read', async () => {
    const versions = { id: 'd1', name: '1', serviceSubCategory: 'voice_over', status: 'reviewable' };
    const { api } = createFakeApi({
      'revisions.versions': ({ deliverableId }: { deliverableId: string }) => {
        if (deliverableId === 'two') return { ...versions, versions: [{ created: 'a' }, { created: 'b' }] };
        if (deliverableId === 'none') return { ...versions, versions: [] };
        throw serviceError('NOT_LOADED_OFFLINE');
      },
    } as never);
    const flow = withApi(api, () => useReviewFlowStore());
    expect(await flow.latestVersion('two')).toBe(2);
    expect(await flow.latestVersion('none')).toBe(1);
    expect(await flow.latestVersion('never-loaded')).toBe(1);
  });

  it('sends what the review screen sends, with the version named in the dialog as the one heard', async () => {
    const { api, calls } = createFakeApi({
      'deliverables.reject': () => ({
        id: 'd1',
        name: '1',
        serviceSubCategory: 'voice_over',
        status: 'rejected',
      }),
      'revisions.create': () => ({
        id: 'd1',
        name: '1',
        serviceSubCategory: 'voice_over',
        status: 'revisionRequested',
        instructions: 'x',
        checkTalent: false,
      }),
    });
    const flow = withApi(api, () => useReviewFlowStore());
    expect(await flow.rejectFromList('p1', take, 3, { reason: 'Too fast', reasonCode: 'wrong_tone' })).toBe(
      'rejected',
    );
    const note = 'Slower here.\nWarmer there.';
    await flow.reviseFromList(
      'p1',
      take,
      3,
      { instructions: note, checkTalent: false, reason: 'audio' },
      false,
    );
    await flow.reviseFromList(
      'p1',
      take,
      3,
      { instructions: note, checkTalent: true, reason: 'audio' },
      true,
    );
    const heard = { version: 3, status: 'reviewable', projectId: 'p1' };
    expect(calls.map(({ input }) => input)).toEqual([
      { id: 'd1', heard, reason: 'Too fast', reasonCode: 'wrong_tone' },
      { deliverableId: 'd1', heard, instructions: note, checkTalent: false },
      { deliverableId: 'd1', heard, instructions: note, checkTalent: true, reason: 'audio' },
    ]);
  });
});
