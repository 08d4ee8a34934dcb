// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { LibraryItem } from '../../../shared/ipc';
import { createFakeApi, serviceError, withApi } from './fake-api.test-util';
import { libraryItem } from './library-item.test-util';
import { localAudioFor, useReviewStore } from './review';

const deliverable = {
  id: 'd1',
  serviceSubCategory: 'voice_over',
  name: '1',
  status: 'reviewable',
  urls: { wav: 'https://svc/d1-v2.wav', mp3: 'https://svc/d1-v2.mp3' },
};
const versions = {
  ...deliverable,
  versions: [
    {
      created: '2026-01-01T10:00:00',
      instructions: null,
      urls: { wav: 'https://svc/d1-v1.wav', mp3: 'https://svc/d1-v1.mp3' },
    },
    { created: '2026-01-02T10:00:00', instructions: 'Slower at [0:03.0]', urls: deliverable.urls },
  ],
};
const localV2 = libraryItem({
  id: 'lib-2',
  version: 2,
  relativePath: 'Spring ad/1.v2.wav',
  size: 1000,
  downloadedAt: '2026-01-03T10:00:00Z',
  orderedSeconds: 30,
});
const project = {
  id: 'p1',
  title: 'Spring ad',
  mainService: 'audio_ads',
  fulfillmentType: 'contest',
  created: '2026-01-01T09:00:00',
  status: 'paid',
  price: 10,
  fake: false,
  test: true,
  services: [
    {
      id: 's3',
      subCategory: 'post-production',
      price: 1,
      status: 'paid',
      units: 30,
      unitType: 'seconds',
      seconds: 30,
    },
  ],
};
const analysis = {
  durationSeconds: 30.1,
  sampleRate: 48000,
  channels: 2,
  bitDepth: 24,
  codec: 'pcm_s24le',
  integratedLufs: -23.2,
  loudnessRangeLu: 4,
  maxMomentaryLufs: -18,
  maxShortTermLufs: -20,
  truePeakDbtp: -1.5,
  samplePeakDbfs: -1.8,
};

function fake(extra: Parameters<typeof createFakeApi>[0] = {}) {
  return createFakeApi({
    'deliverables.get': () => deliverable,
    'revisions.versions': () => versions,
    'library.list': () => [localV2],
    'projects.get': () => project,
    'media.libraryUrl': (input) => ({
      url: `/media/library/${(input as { id: string }).id}`,
      contentType: 'audio/wav',
    }),
    'media.remoteUrl': (input) => ({
      url: `/media/remote?u=${(input as { url: string }).url}`,
      contentType: 'audio/mpeg',
    }),
    'library.peaks': () => ({ duration: 30, peaks: [[0.1], [-0.1]] }),
    'audio.analyze': () => analysis,
    'audio.qa': (input) => ({ target: (input as { target: string }).target, pass: true, checks: [] }),
    ...extra,
  });
}

/** What a decision carries of the take the producer heard: the fake's latest version (2), its status, its project. */
const HEARD = { version: 2, status: 'reviewable', projectId: 'p1' };

describe('review store', () => {
  it("checks against the project's purpose, remembers it, and keeps the producer's pick for this project", async () => {
    let remembered: Record<string, { target: string; from: string }> = {};
    const podcastProject = {
      ...project,
      services: [
        ...project.services,
        { ...project.services[0], id: 's2', subCategory: 'voice_over', purpose: 'podcast' },
      ],
    };
    const f = fake({
      'projects.get': () => podcastProject,
      'qa.targets': () => remembered,
      'qa.setTarget': (input) => {
        const { projectId, target, from } = input as { projectId: string; target: string; from: string };
        remembered = { ...remembered, [projectId]: { target, from } };
        return remembered;
      },
    });
    const review = withApi(f.api, () => useReviewStore());
    await review.load('d1', 'p1');
    expect(review.qaTarget).toBe('podcast');
    expect(review.qaTargetSource).toBe('purpose');
    await review.loadQa();
    expect(f.calls.filter((c) => c.channel === 'audio.qa').at(-1)?.input).toMatchObject({
      target: 'podcast',
    });
    expect(remembered).toEqual({ p1: { target: 'podcast', from: 'purpose' } });

    await review.setQaTarget('streaming');
    expect(remembered).toEqual({ p1: { target: 'streaming', from: 'producer' } });
    await review.load('d1', 'p1');
    expect(review.qaTarget).toBe('streaming');
    expect(review.qaTargetSource).toBe('chosen');
  });
  it('loads the newest version and plays its downloaded file with peaks, with QA for it', async () => {
    const f = fake();
    const review = withApi(f.api, () => useReviewStore());
    await review.load('d1', 'p1');
    expect(review.versions.map((v) => v.number)).toEqual([1, 2]);
    expect(review.selectedVersion).toBe(2);
    expect(review.source?.url).toBe('/media/library/lib-2');
    expect(review.source?.peaks?.duration).toBe(30);
    expect(review.isContest).toBe(true);
    expect(review.isAudioAds).toBe(true);
    await review.loadQa();
    expect(review.analysis?.integratedLufs).toBe(-23.2);
    const qaCall = f.calls.filter((c) => c.channel === 'audio.qa').at(-1);
    expect(qaCall?.input).toEqual({ id: 'lib-2', target: 'ebu-r128', orderedSeconds: 30 });
  });

  it('drops a QA answer that arrives after another deliverable was opened', async () => {
    let answer: (value: typeof analysis) => void = () => undefined;
    const slow = new Promise<typeof analysis>((resolve) => (answer = resolve));
    const f = fake({
      'audio.analyze': (input) => ((input as { id: string }).id === 'lib-2' ? slow : analysis),
      'library.list': () => [localV2],
    });
    const review = withApi(f.api, () => useReviewStore());
    await review.load('d1', 'p1');
    const late = review.loadQa();
    expect(review.qaLoading).toBe(true);
    // The producer moves to a deliverable with no local file: nothing to measure there.
    await review.load('d2', 'p1');
    answer({ ...analysis, integratedLufs: -16 });
    await late;
    expect(review.deliverableId).toBe('d2');
    expect(review.analysis).toBeNull();
    expect(review.qa).toBeNull();
    expect(review.qaLoading).toBe(false);
  });

  it('Match loudness: the gain follows the take whose media plays, from its measured loudness and the QA target', async () => {
    const localV1: LibraryItem = {
      ...localV2,
      id: 'lib-1',
      version: 1,
      relativePath: 'Spring ad/1.v1.wav',
      analysis: { ...analysis, integratedLufs: -29.1 },
    };
    const f = fake({ 'library.list': () => [localV1, localV2] });
    const review = withApi(f.api, () => useReviewStore());
    await review.load('d1', 'p1');
    // Version 2 has no figure in the library: the analysis made on opening gives it.
    await review.loadQa();
    expect(review.matchTargetLufs).toBe(-23);
    expect(review.matchGain).toBe(0.2);
    // Selected, not yet playing: the gain stays with the media that plays until the swap.
    const switching = review.selectVersion(1);
    expect(review.matchGain).toBe(0.2);
    await switching;
    expect(review.matchGain).toBe(6.1);
    await review.setQaTarget('podcast');
    expect(review.matchGain).toBe(13.1);
  });

  it('A/B: the older version without a local file streams the service mp3 and has no QA', async () => {
    const f = fake();
    const review = withApi(f.api, () => useReviewStore());
    await review.load('d1', 'p1');
    await review.selectVersion(1);
    expect(review.source?.url).toBe('/media/remote?u=https://svc/d1-v1.mp3');
    expect(review.source?.peaks).toBeNull();
    expect(review.qa).toBeNull();
  });

  it('a new delivery of this deliverable refreshes status and versions, keeping the selected version', async () => {
    let delivered = false;
    const third = { created: '2026-01-04T10:00:00', instructions: null, urls: deliverable.urls };
    const f = fake({
      'deliverables.get': () => ({ ...deliverable, status: delivered ? 'reviewable' : 'revisionRequested' }),
      'revisions.versions': () =>
        delivered ? { ...versions, versions: [...versions.versions, third] } : versions,
    });
    const review = withApi(f.api, () => useReviewStore());
    await review.load('d1', 'p1');
    const stop = review.listen();
    expect(review.deliverable?.status).toBe('revisionRequested');
    delivered = true;
    const ready = { profileId: 'x', projectId: 'p1', projectTitle: 'Spring ad', deliverableName: '1' };
    f.emit('deliverable.ready', { ...ready, deliverableId: 'other', serviceSubCategory: 'voice_over' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(review.versions).toHaveLength(2);
    f.emit('deliverable.ready', { ...ready, deliverableId: 'd1', serviceSubCategory: 'voice_over' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(review.versions.map((v) => v.number)).toEqual([1, 2, 3]);
    expect(review.deliverable?.status).toBe('reviewable');
    expect(review.selectedVersion).toBe(2);
    stop();
    expect(f.listenerCount()).toBe(0);
  });

  it('shows the load error when the deliverable does not exist', async () => {
    const f = fake({
      'deliverables.get': () => {
        throw serviceError('DELIVERABLE_NO_EXIST', 'no', 404);
      },
    });
    const review = withApi(f.api, () => useReviewStore());
    await review.load('nope');
    expect((review.loadError as { type: string }).type).toBe('DELIVERABLE_NO_EXIST');
    expect(review.deliverable).toBeNull();
  });

  it('reject sends the new gender-and-age only when given, and updates the status', async () => {
    const f = fake({
      'deliverables.reject': (input) => ({ ...deliverable, status: 'rejected', ...(input as object) }),
    });
    const review = withApi(f.api, () => useReviewStore());
    await review.load('d1', 'p1');
    expect(
      await review.reject({
        reason: 'Wrong voice',
        reasonCode: 'genderAndAgeChange',
        newGenderAndAge: 'seniorMale',
      }),
    ).toBe(true);
    expect(f.calls.find((c) => c.channel === 'deliverables.reject')?.input).toEqual({
      id: 'd1',
      heard: HEARD,
      reason: 'Wrong voice',
      reasonCode: 'genderAndAgeChange',
      newGenderAndAge: 'seniorMale',
    });
    expect(review.deliverable?.status).toBe('rejected');
  });

  it('keeps a revision error on the revision action (TALENT_ON_VACATION) and leaves the status alone', async () => {
    const f = fake({
      'revisions.create': () => {
        throw serviceError('TALENT_ON_VACATION', 'The talent is on vacation until 2026-12-05.');
      },
    });
    const review = withApi(f.api, () => useReviewStore());
    await review.load('d1', 'p1');
    const ok = await review.requestRevision({
      instructions: 'x',
      revisionCode: 'quality_issues',
      reason: 'both',
      checkTalent: true,
    });
    expect(ok).toBe(false);
    expect((review.actionErrors.revision as { type: string }).type).toBe('TALENT_ON_VACATION');
    expect(review.actionErrors.approve).toBeUndefined();
    expect(review.deliverable?.status).toBe('reviewable');
    expect(f.calls.find((c) => c.channel === 'revisions.create')?.input).toEqual({
      deliverableId: 'd1',
      heard: HEARD,
      instructions: 'x',
      checkTalent: true,
      revisionCode: 'quality_issues',
      reason: 'both',
    });
  });

  it('drops the audio-ads revision reason for a voice-over project', async () => {
    const f = fake({
      'projects.get': () => ({ ...project, mainService: 'voice_over', fulfillmentType: 'speedy' }),
      'revisions.create': () => ({
        ...deliverable,
        status: 'revisionRequested',
        instructions: 'x',
        checkTalent: false,
      }),
    });
    const review = withApi(f.api, () => useReviewStore());
    await review.load('d1', 'p1');
    expect(review.isContest).toBe(false);
    await review.requestRevision({ instructions: 'x', reason: 'both', checkTalent: false });
    expect(f.calls.find((c) => c.channel === 'revisions.create')?.input).toEqual({
      deliverableId: 'd1',
      heard: HEARD,
      instructions: 'x',
      checkTalent: false,
    });
    expect(review.deliverable?.status).toBe('revisionRequested');
  });

  it('switches to the downloaded file when the library gains it', async () => {
    let items: LibraryItem[] = [];
    const f = fake({ 'library.list': () => items });
    const review = withApi(f.api, () => useReviewStore());
    await review.load('d1', 'p1');
    expect(review.source?.url).toContain('/media/remote');
    items = [localV2];
    await review.refreshLibrary();
    expect(review.source?.url).toBe('/media/library/lib-2');
  });
});

describe('review helpers', () => {
  it('prefers the wav of the version', () => {
    const mp3 = { ...localV2, id: 'm', format: 'mp3' as const };
    expect(localAudioFor([mp3, localV2], 'd1', 2)?.id).toBe('lib-2');
    expect(localAudioFor([mp3], 'd1', 2)?.id).toBe('m');
    expect(localAudioFor([localV2], 'd1', 1)).toBeNull();
  });
});

describe('a decision that could not be saved on this computer', () => {
  const notSaved = () => {
    throw serviceError(
      'DECISION_NOT_SAVED',
      'Your decision could not be saved on this computer (disk full), so it was not sent. What you typed is still in the form.',
      0,
    );
  };

  it('is said at once on its action; nothing is marked queued and the status stays', async () => {
    const f = fake({
      'deliverables.reject': notSaved,
      'revisions.create': notSaved,
      'deliverables.approve': notSaved,
    });
    const review = withApi(f.api, () => useReviewStore());
    await review.load('d1', 'p1');
    // false: the view keeps the form open, and with it what was typed.
    expect(await review.reject({ reason: 'Too fast' })).toBe(false);
    expect(await review.requestRevision({ instructions: 'Warmer', checkTalent: false })).toBe(false);
    expect(await review.approve()).toBe(false);
    for (const action of ['reject', 'revision', 'approve'] as const)
      expect((review.actionErrors[action] as { type: string }).type).toBe('DECISION_NOT_SAVED');
    expect(review.deliverable?.status).toBe('reviewable');
    expect(review.lastResult ?? '').not.toMatch(/outbox/);
    expect(f.calls.some((c) => c.channel === 'outbox.list')).toBe(false);
  });
});
