/**
 * Loading a deliverable for review: the deliverable, its versions, library files and QA targets at once, then its
 * project (and the project's takes), the media and a script's PDF; offline, what the project page last listed.
 * Also what keeps it current while the screen is open: new deliveries, finished downloads, decisions that went out.
 */
import { ref, shallowRef, watch } from 'vue';
import type { Deliverable, Project } from '../../../../shared/api';
import type { ClientApi, MirroredRead, RefreshedRead } from '../../../../shared/ipc';
import { useProfilesStore } from '../profiles';
import { whenFresh } from '../support/fresh-answer';
import { latestAnswer } from '../support/latest-answer';
import type { ReviewActions } from './actions';
import type { reviewLivePeaks } from './live-peaks';
import { isUnreachable, statusChangedOf, type ReviewCache } from './model';
import type { reviewPlayback } from './playback';
import type { ReviewQa } from './qa';
import type { ReviewState } from './state';

/** The review's other units, which a load resets and then fills. */
export interface ReviewUnits {
  qa: ReviewQa;
  playback: ReturnType<typeof reviewPlayback>;
  live: ReturnType<typeof reviewLivePeaks>;
  actions: ReviewActions;
}

export function reviewLoading(api: ClientApi, state: ReviewState, units: ReviewUnits) {
  const { qa, playback, live, actions } = units;
  const loading = ref(false);
  const loadError = shallowRef<unknown>(null);
  const versionsError = shallowRef<unknown>(null);
  const projectError = shallowRef<unknown>(null);
  /** Openable URL of a script deliverable's PDF (proxied by main). */
  const pdfUrl = ref<string | null>(null);
  const pdfError = shallowRef<unknown>(null);
  /** Latest answer wins: the load of the deliverable opened last. */
  const loads = latestAnswer();
  const profiles = useProfilesStore();
  // What was loaded shows as offline once the service is known away (before, it was waiting to be refreshed).
  watch(
    () => profiles.connection,
    (connection) => {
      if (connection === 'unreachable' && state.asOf.value !== null) state.offline.value = true;
    },
  );

  /**
   * The service's answer to a read main first answered from what was loaded (`asOf`): it comes as `read.refreshed`,
   * or as the answer to the same read asked again `fresh` (whichever lands first; the second finds nothing stale).
   */
  function applyRefreshed(read: RefreshedRead): void {
    const id = state.deliverableId.value;
    if (read.profileId !== profiles.state?.activeId || !id) return;
    if (read.channel === 'deliverables.get' && read.input.id === id && state.staleReads.delete('take'))
      state.deliverable.value = read.value;
    else if (
      read.channel === 'revisions.versions' &&
      read.input.deliverableId === id &&
      state.staleReads.delete('versions')
    ) {
      // A version that arrived shows in the list. The newest is shown, as a fresh open would, unless the producer
      // picked a version of this take: then the selection stays (the player does not jump).
      const showNewest = state.selectedVersion.value >= state.versions.value.length && !playback.picked();
      state.versionList.value = read.value.versions;
      state.versionsUnreadable.value = read.value.unreadable ?? 0;
      state.statusChanged.value = statusChangedOf(read.value);
      const newest = Math.max(1, state.versions.value.length);
      if (showNewest && newest !== state.selectedVersion.value) void playback.showVersion(newest);
    } else if (read.channel === 'projects.get' && read.input.id === state.project.value?.id)
      state.project.value = read.value;
    else if (read.channel === 'deliverables.list' && read.input.projectId === state.project.value?.id)
      state.siblings.value = read.value.items;
    else return;
    if (state.staleReads.size === 0 && state.asOf.value !== null) {
      state.asOf.value = null;
      state.offline.value = false;
    }
  }

  /** A read answered from what was loaded: its service answer is asked for too, and replaces it when it lands. */
  function followUp<C extends MirroredRead>(
    channel: C,
    input: Extract<RefreshedRead, { channel: C }>['input'],
    ask: () => Promise<{ asOf?: string }>,
    isLatest: () => boolean,
  ): void {
    const profileId = profiles.state?.activeId;
    if (!profileId) return;
    whenFresh(ask(), isLatest, (value) =>
      applyRefreshed({ profileId, channel, input, value } as RefreshedRead),
    );
  }

  /** Loads deliverable, versions, project (for contest / audio ads) and library files; resets the rest. */
  async function load(id: string, projectId?: string, cache: ReviewCache = {}): Promise<void> {
    const isLatest = loads.next();
    live.stopLivePeaks();
    state.reset(id);
    playback.reset();
    qa.measuredLufs.value = {};
    pdfUrl.value = null;
    pdfError.value = null;
    qa.dropQa();
    actions.reset();
    loadError.value = null;
    versionsError.value = null;
    projectError.value = null;
    loading.value = true;
    try {
      const [d, v, lib, chosen] = await Promise.allSettled([
        api.deliverables.get({ id }),
        api.revisions.versions({ deliverableId: id }),
        api.library.list(projectId ? { projectId } : undefined),
        api.qa.targets(),
      ]);
      if (!isLatest()) return;
      qa.projectQaTargets.value = chosen.status === 'fulfilled' ? chosen.value : {};
      qa.pickQaTarget(projectId ?? null);
      let loaded: Deliverable;
      if (d.status === 'fulfilled') {
        loaded = d.value;
        // Answered from what main loaded before: offline when the service is away, else refreshed in a moment.
        if (d.value.asOf) {
          state.offline.value = profiles.connection === 'unreachable';
          state.asOf.value = d.value.asOf;
          state.staleReads.add('take');
          followUp('deliverables.get', { id }, () => api.deliverables.get({ id, fresh: true }), isLatest);
        }
      } else if (isUnreachable(d.reason) && cache.deliverable?.id === id) {
        // Offline: review what the project page last listed; the library has the files.
        loaded = cache.deliverable;
        state.offline.value = true;
      } else {
        loadError.value = d.reason;
        return;
      }
      state.deliverable.value = loaded;
      if (v.status === 'fulfilled') {
        state.versionList.value = v.value.versions;
        state.versionsUnreadable.value = v.value.unreadable ?? 0;
        state.statusChanged.value = statusChangedOf(v.value);
        if (v.value.asOf) {
          state.staleReads.add('versions');
          followUp(
            'revisions.versions',
            { deliverableId: id },
            () => api.revisions.versions({ deliverableId: id, fresh: true }),
            isLatest,
          );
        }
      } else versionsError.value = v.reason;
      // The library is local: when it fails the review still works from the service.
      state.library.value = lib.status === 'fulfilled' ? lib.value.filter((i) => i.deliverableId === id) : [];
      state.selectedVersion.value = Math.max(1, state.versions.value.length);
      const pid = projectId ?? state.library.value[0]?.projectId;
      if (pid && !projectId) qa.pickQaTarget(pid);
      const tasks: Array<Promise<unknown>> = [];
      if (pid) tasks.push(loadProject(pid, isLatest, cache.project));
      if (state.isAudio.value) tasks.push(playback.resolveSource());
      if (loaded.urls.pdf && !state.offline.value) tasks.push(resolvePdf(loaded.urls.pdf, isLatest));
      await Promise.all(tasks);
    } finally {
      if (isLatest()) loading.value = false;
    }
  }

  async function loadProject(id: string, isLatest: () => boolean, cached?: Project | null): Promise<void> {
    const [p, list] = await Promise.allSettled([
      api.projects.get({ id }),
      api.deliverables.list({ projectId: id }),
    ]);
    if (!isLatest()) return;
    const before = qa.qaTarget.value;
    if (p.status === 'fulfilled') {
      state.project.value = p.value;
      if (p.value.asOf)
        followUp('projects.get', { id }, () => api.projects.get({ id, fresh: true }), isLatest);
    }
    // Offline: the project as the project page last listed it.
    else if (isUnreachable(p.reason) && cached?.id === id) state.project.value = cached;
    else projectError.value = p.reason;
    if (state.project.value) {
      qa.pickQaTarget(id);
      // The purpose arrived after the first verdict (sources and project load at once): measure against it.
      if (qa.qaTarget.value !== before && (qa.qa.value || qa.qaLoading.value)) void qa.loadQa();
    }
    // Takes and the written script are context: without them the review still works.
    if (list.status === 'fulfilled') {
      state.siblings.value = list.value.items;
      if (list.value.asOf)
        followUp(
          'deliverables.list',
          { projectId: id },
          () => api.deliverables.list({ projectId: id, fresh: true }),
          isLatest,
        );
    }
    await loadReplacementDate(isLatest);
  }

  /** When the take replacing this one arrived: its first version's date (one versions call, only if replaced). */
  async function loadReplacementDate(isLatest: () => boolean): Promise<void> {
    const next = state.take.value?.replacedBy;
    if (!next) return;
    try {
      const answer = await api.revisions.versions({ deliverableId: next.id });
      if (isLatest()) state.replacementDelivered.value = answer.versions[0]?.created ?? null;
    } catch {
      // The history says "replaced by" without a date.
    }
  }

  async function resolvePdf(url: string, isLatest: () => boolean): Promise<void> {
    try {
      const media = await api.media.remoteUrl({ url });
      if (isLatest()) pdfUrl.value = media.url;
    } catch (e) {
      if (isLatest()) pdfError.value = e;
    }
  }

  /** A new delivery of this deliverable (a revised take): refresh its status and versions, keep what's selected. */
  async function refreshDelivery(): Promise<void> {
    const id = state.deliverableId.value;
    if (!id) return;
    const isLatest = loads.current();
    try {
      // After a decision or a new delivery: the service's answers, not what was loaded.
      const [d, v] = await Promise.all([
        api.deliverables.get({ id, fresh: true }),
        api.revisions.versions({ deliverableId: id, fresh: true }),
      ]);
      if (!isLatest()) return;
      state.deliverable.value = d;
      state.versionList.value = v.versions;
      state.versionsUnreadable.value = v.unreadable ?? 0;
      versionsError.value = null;
      state.statusChanged.value = statusChangedOf(v) ?? state.statusChanged.value;
      if (d.status !== 'revisionRequested') state.pendingInstructions.value = null;
    } catch {
      // Keep what we have; the next load shows errors where they belong.
    }
  }

  /**
   * Follows library changes (a finished download) and new deliveries of this deliverable while the screen is
   * open; the owner flushes the disposer.
   */
  function listen(): () => void {
    const offLibrary = api.on('library.changed', () => void playback.refreshLibrary());
    const offReady = api.on('deliverable.ready', (event) => {
      if (event.deliverableId === state.deliverableId.value) void refreshDelivery();
    });
    // A queued decision on this deliverable reached the service: show the service's state (once per item).
    let refreshedFor: string | null = null;
    const offOutbox = api.on('outbox.changed', (items) => {
      const id = state.deliverableId.value;
      // Read from the event itself: the outbox store may take the same event after this listener.
      const latest = items.findLast((i) => 'deliverableId' in i.decision && i.decision.deliverableId === id);
      if (latest?.state !== 'sent' || latest.id === refreshedFor) return;
      refreshedFor = latest.id;
      void refreshDelivery().then(() => {
        state.offline.value = false;
        state.asOf.value = null;
      });
    });
    const offRefreshed = api.on('read.refreshed', applyRefreshed);
    return () => {
      offLibrary();
      offReady();
      offOutbox();
      offRefreshed();
      live.stopLivePeaks();
    };
  }

  return { loading, loadError, versionsError, projectError, pdfUrl, pdfError, load, listen };
}
