/**
 * What the review screen knows about the deliverable under review, shared by the review's units: the deliverable,
 * its project, versions, library files and siblings, and what follows from them (the version selected, the take,
 * its history, the script to read along). The units fill it; none of them owns it alone.
 */
import { computed, ref } from 'vue';
import type { Deliverable, DeliverableVersion, Project } from '../../../../shared/api';
import { orderedSecondsOf } from '../../../../shared/api/ordered-seconds';
import type { LibraryItem } from '../../../../shared/ipc';
import { scriptForDeliverable } from '../project-brief';
import { historyOf, takesOf } from '../take-history';
import { isAudioDeliverable, localAudioFor, type ReviewVersion } from './model';

export function reviewState() {
  const deliverableId = ref<string | null>(null);
  const deliverable = ref<Deliverable | null>(null);
  const project = ref<Project | null>(null);
  const versionList = ref<DeliverableVersion[]>([]);
  const library = ref<LibraryItem[]>([]);
  /** Versions the service listed that could not be read (skipped by main). */
  const versionsUnreadable = ref(0);
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
  /** The service could not be reached at load: what is shown is what was last seen, and decisions go to the outbox. */
  const offline = ref(false);
  /**
   * When what is shown was read from the service (ISO), while it comes from main's read mirror: the service's own
   * answer follows as `read.refreshed` and replaces it in place. Shown as offline only with the service known away.
   */
  const asOf = ref<string | null>(null);
  /** The take's reads main answered from what was loaded, until the service's answers replace them. */
  const staleReads = new Set<'take' | 'versions'>();

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

  /** Forgets the deliverable shown, for a load of `id`. */
  function reset(id: string): void {
    offline.value = false;
    asOf.value = null;
    staleReads.clear();
    deliverableId.value = id;
    deliverable.value = null;
    project.value = null;
    versionList.value = [];
    versionsUnreadable.value = 0;
    library.value = [];
    siblings.value = [];
    statusChanged.value = null;
    pendingInstructions.value = null;
    replacementDelivered.value = null;
  }

  return {
    deliverableId,
    deliverable,
    project,
    versionList,
    library,
    versionsUnreadable,
    siblings,
    statusChanged,
    pendingInstructions,
    replacementDelivered,
    selectedVersion,
    offline,
    asOf,
    staleReads,
    isAudio,
    isScript,
    serviceCost,
    isContest,
    isAudioAds,
    orderedSeconds,
    versions,
    current,
    latest,
    decisionVersion,
    take,
    history,
    script,
    reset,
  };
}

export type ReviewState = ReturnType<typeof reviewState>;
