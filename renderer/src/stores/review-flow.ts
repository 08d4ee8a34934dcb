import { defineStore } from 'pinia';
import { ref } from 'vue';
import { useApi } from '../bridge';
import type { WaveformSource } from '../composables/use-waveform';

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

  return { note, nextLink, entrySource, approveFromList };
});

/** Shift+N: the previous take that needs review. */
export function isPreviousKey(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}): boolean {
  return (
    event.key.toLowerCase() === 'n' && event.shiftKey && !event.ctrlKey && !event.metaKey && !event.altKey
  );
}

/** N, without modifiers, outside a field: "Next needing review". */
export function isNextKey(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}): boolean {
  return (
    event.key.toLowerCase() === 'n' && !event.ctrlKey && !event.metaKey && !event.altKey && !event.shiftKey
  );
}

/** Where N is a letter being typed, not "next": a field, or editable text (a focused button still means next). */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.closest !== 'function') return false;
  return el.isContentEditable || el.closest('input, textarea, select, [contenteditable="true"]') !== null;
}
