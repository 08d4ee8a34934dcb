// Delivery scheduling: which owed work items are due, delivering each whole or marking it failed, and when
// the next one falls due (the server's timer asks).
import { randomUUID } from 'node:crypto';
import { isoNoZone } from '../../../shared/api';
import type { DeliverableRecord, WorkItem } from '../state';
import type { Creatives } from './creatives';
import { ownValue, type Store } from './store';
import type { MediaDescriptor } from './types';

export function createDelivery(store: Store, creatives: Creatives) {
  const { deps, catalog, now, st, dueAt, deliverablesOf, settle, setStatus } = store;
  const { newVersion, addDeliverable, deliverInitial } = creatives;

  /** Delivers one work item whole, or throws and changes nothing. */
  function deliverItem(item: WorkItem, key: (m: MediaDescriptor) => string): void {
    const project = ownValue(st().projects, item.projectId);
    if (!project || project.status === 'canceled') return;
    const staged: DeliverableRecord[] = [];
    if (item.kind === 'initial') {
      // Live shapes: the deliverables exist since the order; a pro takes them (the work is owed again), then
      // delivers them with their files.
      const waiting = deliverablesOf(project.id).filter(
        (d) => d.status === 'unassigned' || d.status === 'assigned',
      );
      if (deps.liveShapes && waiting.some((d) => d.status === 'unassigned')) {
        for (const d of waiting) d.status = 'assigned';
        st().work.push({ ...item, id: randomUUID(), dueAt: dueAt() });
      } else if (deps.liveShapes && waiting.length > 0) {
        for (const d of waiting) {
          d.status = 'reviewable';
          if (d.versions[0]) d.versions[0].created = isoNoZone(now());
        }
      } else deliverInitial(project, key, staged);
    } else if (item.kind === 'revision' && item.deliverableId) {
      const d = ownValue(st().deliverables, item.deliverableId);
      if (d?.status === 'revisionRequested' && d.pendingRevision) {
        newVersion(d, d.pendingRevision.instructions, key);
        const version = d.versions.at(-1);
        if (version && d.pendingRevision.requested) version.requested = d.pendingRevision.requested;
        setStatus(d, 'reviewable');
        delete d.pendingRevision;
      }
    } else if (item.kind === 'replacement' && item.deliverableId) {
      const old = ownValue(st().deliverables, item.deliverableId);
      const service = project.services.find((s) => s.id === old?.serviceId);
      if (old && service) {
        const genderAndAge = old.rejection?.newGenderAndAge ?? old.genderAndAge;
        const taken = new Set(deliverablesOf(project.id).map((d) => d.talent.id));
        const candidates = catalog.talents(`${old.id}:replacement`, taken.size + 1, {
          language: old.language,
          genderAndAge,
        });
        const talent = candidates.find((t) => !taken.has(t.id)) ?? candidates[0] ?? old.talent;
        const name = old.entry !== undefined ? `Entry ${old.entry} (${talent.name})` : old.name;
        addDeliverable(
          project,
          service,
          {
            name,
            talent,
            entry: old.entry,
            text: old.text,
            seconds: old.seconds,
            language: old.language,
            genderAndAge,
          },
          key,
          staged,
        );
      }
    }
    const deliverables = st().deliverables;
    for (const d of staged) deliverables[d.id] = d;
  }
  return {
    /**
     * Delivers owed work: everything (optionally of one project) when `all`, else what is due by now.
     * Each work item is delivered whole or not at all: one that throws is marked failed (kept in the
     * state with its reason, logged with its project, never retried) and the others go on. Resolves
     * with the number of items delivered.
     */
    deliver(options: { all: boolean; projectId?: string }, key: (m: MediaDescriptor) => string): number {
      const state = st();
      const t = now().getTime();
      const ready = state.work.filter(
        (w) =>
          !w.failed &&
          (options.projectId === undefined || w.projectId === options.projectId) &&
          (options.all || (w.dueAt !== null && w.dueAt <= t)),
      );
      if (ready.length === 0) return 0;
      const done = new Set<string>();
      const touched = new Set<string>();
      for (const item of ready) {
        touched.add(item.projectId);
        try {
          deliverItem(item, key);
          done.add(item.id);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          item.failed = { at: isoNoZone(now()), reason };
          console.error(
            `[sandbox] work item ${item.id} (${item.kind}) of project ${item.projectId} failed and is not retried: ${reason}`,
          );
        }
      }
      state.work = state.work.filter((w) => !done.has(w.id));
      for (const id of touched) {
        const project = ownValue(state.projects, id);
        try {
          if (project) settle(project);
        } catch (error) {
          console.error(`[sandbox] project ${id}: status not updated after delivery`, error);
        }
      }
      return done.size;
    },

    /** Next time (epoch ms) some work is due, or null. */
    nextDue(): number | null {
      let next: number | null = null;
      for (const w of st().work) {
        if (!w.failed && w.dueAt !== null && (next === null || w.dueAt < next)) next = w.dueAt;
      }
      return next;
    },
  };
}
