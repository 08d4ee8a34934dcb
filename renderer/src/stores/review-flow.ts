import { defineStore } from 'pinia';
import { ref } from 'vue';
import { useApi } from '../bridge';
import type { WaveformSource } from '../composables/use-waveform';
import type { RejectInput, RevisionInput } from './review';

/** A take as the project page lists it: what a decision from the list sends along with it. */
export interface ListedTake {
  id: string;
  status: string;
}

/** Said when nothing else waits: the producer is done, not stuck. */
export const NOTHING_NEXT = 'Nothing else needs your review right now.';

/**
 * "Next needing review" across projects: main answers from what it already knows (the review index), with no
 * request to the service. The review screen moves there on the button, on N, and after a decision when the
 * producer chose "advance after a decision".
 */
export const useReviewFlowStore = defineStore('review-flow', () => {
  const api = useApi();
  /** NOTHING_NEXT after a look that found nothing; '' otherwise. */
  const note = ref('');

  /** The review link of the take after `after` (before it, with `back`), or null when nothing else waits. */
  async function nextLink(after?: string, back = false): Promise<string | null> {
    note.value = '';
    const next = await api.projects
      .nextReady({ ...(after ? { after } : {}), ...(back ? { back } : {}) })
      .catch(() => null);
    if (!next) {
      note.value = NOTHING_NEXT;
      return null;
    }
    return `/review/${next.deliverableId}?projectId=${encodeURIComponent(next.projectId)}`;
  }

  /** A contest entry's file, streamed by main (the same way the review screen plays a take not yet downloaded). */
  async function entrySource(remoteUrl: string): Promise<WaveformSource> {
    const media = await api.media.remoteUrl({ url: remoteUrl });
    return { url: media.url, peaks: null, decode: 'short' };
  }

  /**
   * Approves a take from the project page's list, as it was listed (its status and project go with the decision,
   * like the review screen's). Throws the service's error, or QUEUED_OFFLINE when main kept it in the outbox.
   */
  async function approveFromList(projectId: string, take: { id: string; status: string }): Promise<string> {
    const answer = await api.deliverables.approve({ id: take.id, heard: { status: take.status, projectId } });
    return answer.status;
  }

  /**
   * The newest version of a take the app can load now (its versions, from the service — `fresh`, not what was
   * loaded before — or as last read when the service cannot be reached; the take itself is version 1 when none were
   * ever read). A decision from the list is on this version: the producer may not have played it, so the dialog
   * names it.
   */
  async function latestVersion(deliverableId: string): Promise<number> {
    const answer = await api.revisions.versions({ deliverableId, fresh: true }).catch(() => null);
    return Math.max(1, answer?.versions.length ?? 0);
  }

  /** What goes with a decision from the list, as the review screen sends it: version, status and project. */
  const heardFromList = (projectId: string, take: ListedTake, version: number) => ({
    version,
    status: take.status,
    projectId,
  });

  /**
   * Rejects a take from the project page's list, on `version` (see `latestVersion`), through the same outbox as the
   * review screen. Throws the service's error, or QUEUED_OFFLINE when main kept it in the outbox.
   */
  async function rejectFromList(
    projectId: string,
    take: ListedTake,
    version: number,
    input: RejectInput,
  ): Promise<string> {
    const answer = await api.deliverables.reject({
      id: take.id,
      heard: heardFromList(projectId, take, version),
      reason: input.reason,
      ...(input.reasonCode ? { reasonCode: input.reasonCode } : {}),
      ...(input.newGenderAndAge ? { newGenderAndAge: input.newGenderAndAge } : {}),
    });
    return answer.status;
  }

  /** Asks for a revision of a take from the list, on `version`; `audioAds`: the reason is sent (audio ads only). */
  async function reviseFromList(
    projectId: string,
    take: ListedTake,
    version: number,
    input: RevisionInput,
    audioAds: boolean,
  ): Promise<string> {
    const answer = await api.revisions.create({
      deliverableId: take.id,
      heard: heardFromList(projectId, take, version),
      instructions: input.instructions,
      checkTalent: input.checkTalent,
      ...(input.revisionCode ? { revisionCode: input.revisionCode } : {}),
      ...(input.reason && audioAds ? { reason: input.reason } : {}),
    });
    return answer.status;
  }

  /** Gender-and-age values of a category, for a rejection that asks for another voice. */
  function genderAndAgeOptions(categoryId: string) {
    return api.catalog.attributeValues({ categoryId, attributeId: 'genderAndAge' });
  }

  return {
    note,
    nextLink,
    entrySource,
    approveFromList,
    latestVersion,
    rejectFromList,
    reviseFromList,
    genderAndAgeOptions,
  };
});

/** The keys and modifiers of a keydown that the review shortcuts read. */
type KeyPress = { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean };

/** N, with Shift held or not as asked, and no other modifier. */
function isN(event: KeyPress, shift: boolean): boolean {
  return (
    event.key.toLowerCase() === 'n' &&
    event.shiftKey === shift &&
    !event.ctrlKey &&
    !event.metaKey &&
    !event.altKey
  );
}

/** Shift+N: the previous take that needs review. */
export function isPreviousKey(event: KeyPress): boolean {
  return isN(event, true);
}

/** N, without modifiers, outside a field: "Next needing review". */
export function isNextKey(event: KeyPress): boolean {
  return isN(event, false);
}

/** Where N is a letter being typed, not "next": a field, or editable text (a focused button still means next). */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.closest !== 'function') return false;
  return el.isContentEditable || el.closest('input, textarea, select, [contenteditable="true"]') !== null;
}
