import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import type { AttributeValue, Deliverable, DeliverableVersion, Project } from '../../../shared/api';
import { orderedSecondsOf } from '../../../shared/api/ordered-seconds';
import {
  DELIVERY_TARGETS,
  defaultQaTarget,
  matchGainDb,
  type AudioAnalysis,
  type DeliveryTargetId,
  type QaVerdict,
} from '../../../shared/audio';
import {
  isAudioFormat,
  isIpcError,
  type LibraryItem,
  type LivePeaks,
  type MediaFormat,
  type OutboxHeard,
  type OutboxItem,
  type ProjectQaTarget,
} from '../../../shared/ipc';
import { useApi } from '../bridge';
import type { WaveformSource } from '../composables/use-waveform';
import { scriptForDeliverable } from './project-brief';
import { historyOf, takesOf } from './take-history';
import { decisionBadge, isQueuedOffline, useOutboxStore } from './outbox';
import { useProfilesStore } from './profiles';

/**
 * Errors that mean the service gave no answer (offline) and main had nothing loaded for it (NOT_LOADED_OFFLINE):
 * the review goes on from what the project page last showed.
 */
const UNREACHABLE = new Set(['NETWORK_UNREACHABLE', 'TIMEOUT', 'SANDBOX_UNAVAILABLE', 'NOT_LOADED_OFFLINE']);
const isUnreachable = (error: unknown) => isIpcError(error) && UNREACHABLE.has(error.type);
/** How often the waveform of a file still streaming into the library is redrawn. */
const LIVE_PEAKS_INTERVAL_MS = 500;

/** What a review can fall back on when the service cannot be reached: what the project page last listed. */
export interface ReviewCache {
  deliverable?: Deliverable | null;
  project?: Project | null;
}

/** A review action; each keeps its own busy flag and error, shown next to its button. */
export type ReviewAction = 'approve' | 'reject' | 'revision' | 'winner' | 'download';

/** Input of a rejection. */
export interface RejectInput {
  reason: string;
  /** Optional on a live account (the docs name only `genderAndAgeChange`); absent, none is sent. */
  reasonCode?: string;
  /** Required by the service when reasonCode is `genderAndAgeChange`. */
  newGenderAndAge?: string;
}

/** Input of a revision request. */
export interface RevisionInput {
  instructions: string;
  revisionCode?: string;
  /** Audio ads only: script | audio | both. */
  reason?: string;
  checkTalent: boolean;
}

/** One playable version in the A/B list (1-based like the library's `version`). */
export interface ReviewVersion {
  number: number;
  created: string | null;
  instructions: string | null;
  /** When the revision behind this version was asked for, where the service says it. */
  requested: string | null;
  urls: DeliverableVersion['urls'];
  /** The downloaded audio file of this version, if any (wav preferred). */
  local: LibraryItem | null;
}

/** `statusChanged` of a versions answer: not in the spec; the sandbox (and maybe the service) sends it. */
function statusChangedOf(answer: object): string | null {
  const value = (answer as { statusChanged?: unknown }).statusChanged;
  return typeof value === 'string' ? value : null;
}

/** Deliverable categories that carry audio (voice over and post production). */
export function isAudioDeliverable(d: Pick<Deliverable, 'serviceSubCategory' | 'urls'>): boolean {
  return d.serviceSubCategory !== 'scriptwriting' && Boolean(d.urls.wav || d.urls.mp3);
}

/** Picks the library file to play and analyse for a version: wav over mp3 (lossless for QA). */
export function localAudioFor(
  items: LibraryItem[],
  deliverableId: string,
  version: number,
): LibraryItem | null {
  const audio = items.filter(
    (i) => i.deliverableId === deliverableId && i.version === version && isAudioFormat(i.format),
  );
  return audio.find((i) => i.format === 'wav') ?? audio[0] ?? null;
}

/** One deliverable under review: its versions, local files, QA, and the approve/reject/revise/winner actions. */
export const useReviewStore = defineStore('review', () => {
  const api = useApi();
  const outbox = useOutboxStore();

  const deliverableId = ref<string | null>(null);
  const deliverable = ref<Deliverable | null>(null);
  const project = ref<Project | null>(null);
  const versionList = ref<DeliverableVersion[]>([]);
  const library = ref<LibraryItem[]>([]);
  const loading = ref(false);
  const loadError = shallowRef<unknown>(null);
  const versionsError = shallowRef<unknown>(null);
  /** Versions the service listed that could not be read (skipped by main). */
  const versionsUnreadable = ref(0);
  const projectError = shallowRef<unknown>(null);
  /** The project's deliverables: takes of the same name, and the written script of an audio ad. */
  const siblings = ref<Deliverable[]>([]);
  /** When the status last changed: from the versions answer, or the moment the service answered our action. */
  const statusChanged = ref<string | null>(null);
  /** Instructions of the revision asked for here and not delivered yet. */
  const pendingInstructions = ref<string | null>(null);
  /** First delivery of the take that replaced this one (its versions answer). */
  const replacementDelivered = ref<string | null>(null);

  /** 1-based version in the player; defaults to the newest. */
  const selectedVersion = ref(1);
  const source = shallowRef<WaveformSource | null>(null);
  /** The version whose media `source` is: the gain of Match loudness follows it, not the selection. */
  const sourceVersion = ref<number | null>(null);
  /** Integrated loudness of this deliverable's versions measured here (by version), for Match loudness. */
  const measuredLufs = ref<Record<number, number | null>>({});
  const sourceLoading = ref(false);
  const sourceError = shallowRef<unknown>(null);

  const busy = ref<ReviewAction | null>(null);
  const actionErrors = ref<Partial<Record<ReviewAction, unknown>>>({});
  /** Text of the last successful action, for a polite live region. */
  const lastResult = ref('');
  /** The service could not be reached at load: what is shown is what was last seen, and decisions go to the outbox. */
  const offline = ref(false);
  /**
   * When what is shown was read from the service (ISO), while it comes from main's read mirror: the service's own
   * answer follows as `read.refreshed` and replaces it in place. Shown as offline only with the service known away.
   */
  const asOf = ref<string | null>(null);
  /** The take's reads main answered from what was loaded, until the service's answers replace them. */
  const staleReads = new Set<'take' | 'versions'>();
  const profiles = useProfilesStore();
  watch(
    () => profiles.connection,
    (connection) => {
      if (connection === 'unreachable' && asOf.value !== null) offline.value = true;
    },
  );
  /** Peaks of the selected version while it streams into the library (drawn as they arrive), else null. */
  const livePeaks = shallowRef<LivePeaks | null>(null);
  let livePeaksTimer: ReturnType<typeof setTimeout> | null = null;

  const qaTarget = ref<DeliveryTargetId>('ebu-r128');
  /** Target for a file whose project is not known (the Settings default); set by the view. */
  const fallbackQaTarget = ref<DeliveryTargetId>('ebu-r128');
  /** Each project's remembered target (this profile's), by project id. */
  const projectQaTargets = ref<Record<string, ProjectQaTarget>>({});
  /** Where qaTarget came from: the producer's pick for this project, its purpose, or the Settings default. */
  const qaTargetSource = ref<'chosen' | 'purpose' | 'default'>('default');
  const analysis = ref<AudioAnalysis | null>(null);
  const qa = ref<QaVerdict | null>(null);
  const qaLoading = ref(false);
  const qaError = shallowRef<unknown>(null);

  /** Openable URL of a script deliverable's PDF (proxied by main). */
  const pdfUrl = ref<string | null>(null);
  const pdfError = shallowRef<unknown>(null);

  const genderAndAgeOptions = ref<AttributeValue[]>([]);
  const optionsError = shallowRef<unknown>(null);
  const optionsLoading = ref(false);

  let loadSequence = 0;
  let sourceSequence = 0;
  let qaSequence = 0;

  const isAudio = computed(() => (deliverable.value ? isAudioDeliverable(deliverable.value) : false));
  const isScript = computed(() => deliverable.value?.serviceSubCategory === 'scriptwriting');
  /** What this deliverable's service cost (a revision fee is a percentage of it); null when not known. */
  const serviceCost = computed(
    () =>
      project.value?.services.find((s) => s.subCategory === deliverable.value?.serviceSubCategory)?.price ??
      null,
  );
  const isContest = computed(() => project.value?.fulfillmentType === 'contest');
  const isAudioAds = computed(() => project.value?.mainService === 'audio_ads');
  const orderedSeconds = computed(
    () =>
      current.value?.local?.orderedSeconds ??
      orderedSecondsOf(project.value, deliverable.value?.serviceSubCategory),
  );

  /** Versions oldest first; without a versions answer the deliverable itself is version 1. */
  const versions = computed<ReviewVersion[]>(() => {
    const id = deliverableId.value ?? '';
    const list: Array<Pick<DeliverableVersion, 'urls'> & Partial<DeliverableVersion>> =
      versionList.value.length > 0
        ? versionList.value
        : deliverable.value
          ? [{ urls: deliverable.value.urls }]
          : [];
    return list.map((v, index) => ({
      number: index + 1,
      created: v.created ?? null,
      instructions: v.instructions ?? null,
      requested: typeof v.requested === 'string' ? v.requested : null,
      urls: v.urls,
      local: localAudioFor(library.value, id, index + 1),
    }));
  });
  const current = computed(() => versions.value.find((v) => v.number === selectedVersion.value) ?? null);
  const latest = computed(() => versions.value.at(-1) ?? null);
  /** Approve, reject and revise act on the deliverable, that is on its newest version. */
  const decisionVersion = computed(() => latest.value?.number ?? 1);
  const take = computed(() =>
    deliverableId.value ? (takesOf(siblings.value).get(deliverableId.value) ?? null) : null,
  );
  /** Delivered, revisions, decisions and replacement, oldest first. */
  const history = computed(() => {
    const d = deliverable.value;
    if (!d) return [];
    const t = take.value;
    return historyOf({
      versions: versions.value,
      status: d.status,
      statusChanged: statusChanged.value,
      pendingInstructions: pendingInstructions.value,
      replaces: t?.replaces ? { take: t.take - 1, id: t.replaces.id } : null,
      replacedBy: t?.replacedBy
        ? { take: t.take + 1, id: t.replacedBy.id, delivered: replacementDelivered.value }
        : null,
    });
  });
  /** The script this voice reads, to read along beside the waveform. */
  const script = computed(() =>
    deliverable.value ? scriptForDeliverable(project.value, deliverable.value, siblings.value) : null,
  );
  /** This deliverable's newest outbox item, unless it went through or the service shows its effect. */
  const pendingDecision = computed<OutboxItem | null>(() => {
    const item = outbox.latestFor({
      deliverableId: deliverableId.value ?? undefined,
      projectId: project.value?.id,
    });
    // One truth: once the service shows the decision's effect, its status says it, not "Queued".
    return decisionBadge(item, deliverable.value?.status) ? item : null;
  });

  /** Loads deliverable, versions, project (for contest / audio ads) and library files; resets the rest. */
  async function load(id: string, projectId?: string, cache: ReviewCache = {}): Promise<void> {
    const seq = ++loadSequence;
    stopLivePeaks();
    offline.value = false;
    asOf.value = null;
    staleReads.clear();
    deliverableId.value = id;
    deliverable.value = null;
    project.value = null;
    versionList.value = [];
    versionsUnreadable.value = 0;
    library.value = [];
    source.value = null;
    sourceVersion.value = null;
    measuredLufs.value = {};
    pdfUrl.value = null;
    pdfError.value = null;
    dropQa();
    sourceError.value = null;
    actionErrors.value = {};
    lastResult.value = '';
    loadError.value = null;
    versionsError.value = null;
    projectError.value = null;
    siblings.value = [];
    statusChanged.value = null;
    pendingInstructions.value = null;
    replacementDelivered.value = null;
    loading.value = true;
    try {
      const [d, v, lib, chosen] = await Promise.allSettled([
        api.deliverables.get({ id }),
        api.revisions.versions({ deliverableId: id }),
        api.library.list(projectId ? { projectId } : undefined),
        api.qa.targets(),
      ]);
      if (seq !== loadSequence) return;
      projectQaTargets.value = chosen.status === 'fulfilled' ? chosen.value : {};
      pickQaTarget(projectId ?? null);
      let loaded: Deliverable;
      if (d.status === 'fulfilled') {
        loaded = d.value;
        // Answered from what main loaded before: offline when the service is away, else refreshed in a moment.
        if (d.value.asOf) {
          offline.value = profiles.connection === 'unreachable';
          asOf.value = d.value.asOf;
          staleReads.add('take');
        }
      } else if (isUnreachable(d.reason) && cache.deliverable?.id === id) {
        // Offline: review what the project page last listed; the library has the files.
        loaded = cache.deliverable;
        offline.value = true;
      } else {
        loadError.value = d.reason;
        return;
      }
      deliverable.value = loaded;
      if (v.status === 'fulfilled') {
        versionList.value = v.value.versions;
        versionsUnreadable.value = v.value.unreadable ?? 0;
        statusChanged.value = statusChangedOf(v.value);
        if (v.value.asOf) staleReads.add('versions');
      } else versionsError.value = v.reason;
      // The library is local: when it fails the review still works from the service.
      library.value = lib.status === 'fulfilled' ? lib.value.filter((i) => i.deliverableId === id) : [];
      selectedVersion.value = Math.max(1, versions.value.length);
      const pid = projectId ?? library.value[0]?.projectId;
      if (pid && !projectId) pickQaTarget(pid);
      const tasks: Array<Promise<unknown>> = [];
      if (pid) tasks.push(loadProject(pid, seq, cache.project));
      if (isAudio.value) tasks.push(resolveSource());
      if (loaded.urls.pdf && !offline.value) tasks.push(resolvePdf(loaded.urls.pdf, seq));
      await Promise.all(tasks);
    } finally {
      if (seq === loadSequence) loading.value = false;
    }
  }

  async function loadProject(id: string, seq: number, cached?: Project | null): Promise<void> {
    const [p, list] = await Promise.allSettled([
      api.projects.get({ id }),
      api.deliverables.list({ projectId: id }),
    ]);
    if (seq !== loadSequence) return;
    const before = qaTarget.value;
    if (p.status === 'fulfilled') project.value = p.value;
    // Offline: the project as the project page last listed it.
    else if (isUnreachable(p.reason) && cached?.id === id) project.value = cached;
    else projectError.value = p.reason;
    if (project.value) {
      pickQaTarget(id);
      // The purpose arrived after the first verdict (sources and project load at once): measure against it.
      if (qaTarget.value !== before && (qa.value || qaLoading.value)) void loadQa();
    }
    // Takes and the written script are context: without them the review still works.
    if (list.status === 'fulfilled') siblings.value = list.value.items;
    await loadReplacementDate(seq);
  }

  /** When the take replacing this one arrived: its first version's date (one versions call, only if replaced). */
  async function loadReplacementDate(seq: number): Promise<void> {
    const next = take.value?.replacedBy;
    if (!next) return;
    try {
      const answer = await api.revisions.versions({ deliverableId: next.id });
      if (seq === loadSequence) replacementDelivered.value = answer.versions[0]?.created ?? null;
    } catch {
      // The history says "replaced by" without a date.
    }
  }

  async function resolvePdf(url: string, seq: number): Promise<void> {
    try {
      const media = await api.media.remoteUrl({ url });
      if (seq === loadSequence) pdfUrl.value = media.url;
    } catch (e) {
      if (seq === loadSequence) pdfError.value = e;
    }
  }

  /** Media for the selected version: the library file with its peaks, else the service file streamed by main. */
  async function resolveSource(): Promise<WaveformSource | null> {
    const seq = ++sourceSequence;
    const version = current.value;
    sourceError.value = null;
    if (!version) return null;
    sourceLoading.value = true;
    try {
      let next: WaveformSource;
      if (version.local) {
        const [media, peaks] = await Promise.all([
          api.media.libraryUrl({ id: version.local.id }),
          version.local.hasPeaks ? api.library.peaks({ id: version.local.id }).catch(() => null) : null,
        ]);
        next = { url: media.url, peaks, peaksArrivedAt: performance.now(), decode: 'never' };
      } else {
        // mp3 starts sooner over the proxy; QA waits for the downloaded (wav) file anyway.
        const remote = version.urls.mp3 ?? version.urls.wav;
        if (!remote) throw new Error('This version has no audio file.');
        const media = await api.media.remoteUrl({ url: remote });
        next = { url: media.url, peaks: null, decode: 'short' };
      }
      if (seq !== sourceSequence) return null;
      source.value = next;
      sourceVersion.value = version.number;
      if (version.local) stopLivePeaks();
      else followLivePeaks(version.number);
      void loadQa();
      return next;
    } catch (e) {
      if (seq === sourceSequence) sourceError.value = e;
      return null;
    } finally {
      if (seq === sourceSequence) sourceLoading.value = false;
    }
  }

  /**
   * While the selected version has no library file, asks main for the peaks of its download under way (background
   * fetch) and hands them to the player as they grow; stops when the file is in the library or another loads.
   */
  function followLivePeaks(version: number): void {
    stopLivePeaks();
    const id = deliverableId.value;
    const tick = async () => {
      livePeaksTimer = null;
      if (id !== deliverableId.value || version !== selectedVersion.value) return;
      try {
        const peaks = await api.downloads.livePeaks({ deliverableId: id!, version });
        if (id !== deliverableId.value || version !== selectedVersion.value) return;
        if (peaks) livePeaks.value = peaks;
      } catch {
        // Local and best effort: the flat line stays.
      }
      if (!current.value?.local) livePeaksTimer = setTimeout(() => void tick(), LIVE_PEAKS_INTERVAL_MS);
    };
    void tick();
  }
  function stopLivePeaks(): void {
    if (livePeaksTimer) clearTimeout(livePeaksTimer);
    livePeaksTimer = null;
    livePeaks.value = null;
  }

  /** A/B: selects another version; the view swaps the player's media and keeps the playhead. */
  async function selectVersion(number: number): Promise<void> {
    if (number === selectedVersion.value && source.value) return;
    selectedVersion.value = number;
    dropQa();
    await resolveSource();
  }

  /** Fair A/B: every take plays at the QA target's loudness (kept while the app runs, across takes). */
  const matchLoudness = ref(false);
  const matchTargetLufs = computed(() => DELIVERY_TARGETS[qaTarget.value].integratedLufs);
  /**
   * Gain that brings the take in the player to `matchTargetLufs`, from our own meter's integrated loudness (the
   * library's figure, else the one measured here); null until the take is downloaded and measured. It follows the
   * source, not the selection, so it changes together with the media on an A/B switch.
   */
  const matchGain = computed(() => {
    const playing = versions.value.find((v) => v.number === sourceVersion.value);
    if (!playing) return null;
    const measured = playing.local?.analysis?.integratedLufs ?? measuredLufs.value[playing.number];
    return matchGainDb(measured, matchTargetLufs.value);
  });

  /** Forgets the figures shown, and any answer still on its way for another file or version. */
  function dropQa(): void {
    qaSequence++;
    analysis.value = null;
    qa.value = null;
    qaError.value = null;
    qaLoading.value = false;
  }

  /** Analysis figures and the verdict for the selected version's local file against `qaTarget`. */
  async function loadQa(): Promise<void> {
    const local = current.value?.local;
    if (!local) return dropQa();
    const seq = ++qaSequence;
    const version = selectedVersion.value;
    const id = deliverableId.value;
    qaError.value = null;
    qaLoading.value = true;
    try {
      const ordered = orderedSeconds.value;
      const [a, verdict] = await Promise.all([
        local.analysis ?? api.audio.analyze({ id: local.id }),
        api.audio.qa({
          id: local.id,
          target: qaTarget.value,
          ...(ordered ? { orderedSeconds: ordered } : {}),
        }),
      ]);
      // Kept per version even when another was picked meanwhile: switching back is then seamless.
      if (id === deliverableId.value)
        measuredLufs.value = { ...measuredLufs.value, [version]: a.integratedLufs };
      if (seq !== qaSequence) return;
      analysis.value = a;
      qa.value = verdict;
    } catch (e) {
      if (seq === qaSequence) qaError.value = e;
    } finally {
      if (seq === qaSequence) qaLoading.value = false;
    }
  }

  /** The producer's pick for the project, else its purpose's target, else the Settings default. */
  function pickQaTarget(projectId: string | null): void {
    const remembered =
      projectId && Object.hasOwn(projectQaTargets.value, projectId)
        ? projectQaTargets.value[projectId]!
        : null;
    if (remembered?.from === 'producer') {
      qaTarget.value = remembered.target;
      qaTargetSource.value = 'chosen';
    } else if (projectId && project.value?.id === projectId) {
      qaTarget.value = defaultQaTarget(project.value);
      qaTargetSource.value = 'purpose';
      // Remembered so the library, which does not know purposes, checks this project's files against it too.
      if (remembered?.target !== qaTarget.value) void rememberQaTarget(projectId, qaTarget.value, 'purpose');
    } else if (remembered) {
      qaTarget.value = remembered.target;
      qaTargetSource.value = 'purpose';
    } else {
      qaTarget.value = fallbackQaTarget.value;
      qaTargetSource.value = 'default';
    }
  }

  /** Checks against `target` and remembers it for this project (this project only). */
  async function setQaTarget(target: DeliveryTargetId): Promise<void> {
    qaTarget.value = target;
    qaTargetSource.value = 'chosen';
    const projectId = project.value?.id ?? current.value?.local?.projectId;
    await Promise.all([loadQa(), projectId ? rememberQaTarget(projectId, target, 'producer') : null]);
  }

  async function rememberQaTarget(
    projectId: string,
    target: DeliveryTargetId,
    from: ProjectQaTarget['from'],
  ): Promise<void> {
    try {
      projectQaTargets.value = await api.qa.setTarget({ projectId, target, from });
    } catch (e) {
      if (from === 'producer') qaError.value = e;
    }
  }

  /** Re-reads the library (after a download finished) and switches to the local file when one appeared. */
  async function refreshLibrary(): Promise<void> {
    const id = deliverableId.value;
    if (!id) return;
    try {
      const before = current.value?.local?.id ?? null;
      const items = await api.library.list(project.value ? { projectId: project.value.id } : undefined);
      if (id !== deliverableId.value) return;
      library.value = items.filter((i) => i.deliverableId === id);
      if ((current.value?.local?.id ?? null) !== before && isAudio.value) await resolveSource();
    } catch {
      // Keep what we have; the library screen shows library errors.
    }
  }

  /** A new delivery of this deliverable (a revised take): refresh its status and versions, keep what's selected. */
  async function refreshDelivery(): Promise<void> {
    const id = deliverableId.value;
    if (!id) return;
    const seq = loadSequence;
    try {
      // After a decision or a new delivery: the service's answers, not what was loaded.
      const [d, v] = await Promise.all([
        api.deliverables.get({ id, fresh: true }),
        api.revisions.versions({ deliverableId: id, fresh: true }),
      ]);
      if (seq !== loadSequence) return;
      deliverable.value = d;
      versionList.value = v.versions;
      versionsUnreadable.value = v.unreadable ?? 0;
      versionsError.value = null;
      statusChanged.value = statusChangedOf(v) ?? statusChanged.value;
      if (d.status !== 'revisionRequested') pendingInstructions.value = null;
    } catch {
      // Keep what we have; the next load shows errors where they belong.
    }
  }

  /**
   * Follows library changes (a finished download) and new deliveries of this deliverable while the screen is
   * open; the owner flushes the disposer.
   */
  function listen(): () => void {
    const offLibrary = api.on('library.changed', () => void refreshLibrary());
    const offReady = api.on('deliverable.ready', (event) => {
      if (event.deliverableId === deliverableId.value) void refreshDelivery();
    });
    // A queued decision on this deliverable reached the service: show the service's state (once per item).
    let refreshedFor: string | null = null;
    const offOutbox = api.on('outbox.changed', (items) => {
      const id = deliverableId.value;
      // Read from the event itself: the outbox store may take the same event after this listener.
      const latest = items.findLast((i) => 'deliverableId' in i.decision && i.decision.deliverableId === id);
      if (latest?.state !== 'sent' || latest.id === refreshedFor) return;
      refreshedFor = latest.id;
      void refreshDelivery().then(() => {
        offline.value = false;
        asOf.value = null;
      });
    });
    const offRefreshed = api.on('read.refreshed', (read) => {
      const id = deliverableId.value;
      if (read.profileId !== profiles.state?.activeId || !id) return;
      if (read.channel === 'deliverables.get' && read.input.id === id && staleReads.delete('take'))
        deliverable.value = read.value;
      else if (
        read.channel === 'revisions.versions' &&
        read.input.deliverableId === id &&
        staleReads.delete('versions')
      ) {
        // The selection stays (the player does not jump); a version that arrived shows in the list.
        versionList.value = read.value.versions;
        versionsUnreadable.value = read.value.unreadable ?? 0;
        statusChanged.value = statusChangedOf(read.value);
      } else if (read.channel === 'projects.get' && read.input.id === project.value?.id)
        project.value = read.value;
      else if (read.channel === 'deliverables.list' && read.input.projectId === project.value?.id)
        siblings.value = read.value.items;
      else return;
      if (staleReads.size === 0 && asOf.value !== null) {
        asOf.value = null;
        offline.value = false;
      }
    });
    return () => {
      offLibrary();
      offReady();
      offOutbox();
      offRefreshed();
      stopLivePeaks();
    };
  }

  /** Runs an action; `'queued'` when main kept it in the outbox (the service could not be reached). */
  async function runAction<T>(action: ReviewAction, call: () => Promise<T>): Promise<T | 'queued' | null> {
    busy.value = action;
    const { [action]: _cleared, ...rest } = actionErrors.value;
    actionErrors.value = rest;
    try {
      return await call();
    } catch (e) {
      if (isQueuedOffline(e)) {
        void outbox.load();
        return 'queued';
      }
      actionErrors.value = { ...actionErrors.value, [action]: e };
      return null;
    } finally {
      busy.value = null;
    }
  }
  const QUEUED_TEXT = 'Saved in the outbox: it is sent when the service can be reached.';
  /** Shows the service's answer, or the queued decision; returns whether the action stuck either way. */
  function settle(answer: { status: string } | 'queued' | null, done: string): boolean {
    if (answer === 'queued') lastResult.value = QUEUED_TEXT;
    else if (answer) {
      setStatus(answer.status);
      lastResult.value = done;
    }
    return answer !== null;
  }

  /** The service's answer to our action: its status, changed now. */
  function setStatus(status: string): void {
    if (!deliverable.value) return;
    deliverable.value = { ...deliverable.value, status };
    statusChanged.value = new Date().toISOString();
  }

  /**
   * One decision on the deliverable shown: sent (or queued in the outbox), its answer shown as `done`; false when it
   * did not stick. `answered` runs once the service itself took it.
   */
  async function decide(
    action: ReviewAction,
    call: (id: string) => Promise<{ status: string }>,
    done: string,
    answered?: () => void,
  ): Promise<boolean> {
    const id = deliverableId.value;
    if (!id) return false;
    const answer = await runAction(action, () => call(id));
    if (answer && answer !== 'queued') answered?.();
    return settle(answer, done);
  }

  /** What the producer heard and saw when deciding: kept with the decision until the service has it. */
  function heard(): OutboxHeard {
    return {
      version: decisionVersion.value,
      ...(deliverable.value ? { status: deliverable.value.status } : {}),
      ...(project.value ? { projectId: project.value.id } : {}),
    };
  }

  function approve(): Promise<boolean> {
    return decide(
      'approve',
      (id) => api.deliverables.approve({ id, heard: heard() }),
      `Version ${decisionVersion.value} approved.`,
    );
  }

  function reject(input: RejectInput): Promise<boolean> {
    return decide(
      'reject',
      (id) =>
        api.deliverables.reject({
          id,
          heard: heard(),
          reason: input.reason,
          ...(input.reasonCode ? { reasonCode: input.reasonCode } : {}),
          ...(input.newGenderAndAge ? { newGenderAndAge: input.newGenderAndAge } : {}),
        }),
      `Version ${decisionVersion.value} rejected.`,
    );
  }

  function requestRevision(input: RevisionInput): Promise<boolean> {
    return decide(
      'revision',
      (deliverableId) =>
        api.revisions.create({
          deliverableId,
          heard: heard(),
          instructions: input.instructions,
          checkTalent: input.checkTalent,
          ...(input.revisionCode ? { revisionCode: input.revisionCode } : {}),
          ...(input.reason && isAudioAds.value ? { reason: input.reason } : {}),
        }),
      `Revision of version ${decisionVersion.value} requested.`,
      () => (pendingInstructions.value = input.instructions),
    );
  }

  function selectWinner(): Promise<boolean> {
    return decide(
      'winner',
      (id) => api.deliverables.selectWinner({ id, heard: heard() }),
      'Selected as the contest winner.',
    );
  }

  /** Queues the selected version's file for download ("Download to analyse"). */
  async function download(format: MediaFormat = 'wav'): Promise<boolean> {
    const id = deliverableId.value;
    if (!id) return false;
    const version = selectedVersion.value;
    const projectId = project.value?.id;
    const job = await runAction('download', async () => {
      if (!projectId) throw new Error('Open this deliverable from its project to download it.');
      return api.downloads.start({ deliverableId: id, projectId, format, version });
    });
    if (job && job !== 'queued') lastResult.value = `Downloading ${format.toUpperCase()}…`;
    return job !== null && job !== 'queued';
  }

  /** Gender-and-age values for a rejection with `genderAndAgeChange` (loaded once per deliverable). */
  async function loadGenderAndAgeOptions(): Promise<void> {
    if (genderAndAgeOptions.value.length > 0 || optionsLoading.value) return;
    optionsLoading.value = true;
    optionsError.value = null;
    try {
      genderAndAgeOptions.value = await api.catalog.attributeValues({
        categoryId: project.value?.mainService ?? 'voice_over',
        attributeId: 'genderAndAge',
      });
    } catch (e) {
      optionsError.value = e;
    } finally {
      optionsLoading.value = false;
    }
  }

  return {
    deliverableId,
    deliverable,
    project,
    library,
    loading,
    loadError,
    versionsError,
    versionsUnreadable,
    projectError,
    versions,
    selectedVersion,
    current,
    latest,
    decisionVersion,
    siblings,
    take,
    history,
    script,
    statusChanged,
    source,
    sourceLoading,
    sourceError,
    busy,
    actionErrors,
    lastResult,
    offline,
    asOf,
    livePeaks,
    pendingDecision,
    qaTarget,
    qaTargetSource,
    fallbackQaTarget,
    matchLoudness,
    matchTargetLufs,
    matchGain,
    analysis,
    qa,
    qaLoading,
    qaError,
    pdfUrl,
    pdfError,
    genderAndAgeOptions,
    optionsError,
    optionsLoading,
    isAudio,
    isScript,
    isContest,
    isAudioAds,
    serviceCost,
    orderedSeconds,
    load,
    resolveSource,
    selectVersion,
    loadQa,
    setQaTarget,
    refreshLibrary,
    listen,
    approve,
    reject,
    requestRevision,
    selectWinner,
    download,
    loadGenderAndAgeOptions,
  };
});
