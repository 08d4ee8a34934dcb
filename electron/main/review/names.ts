/** The names an outbox item is shown with, from the answers seen and the library. */
import type { Deliverable } from '../../../shared/api';
import type { OutboxDecision } from '../../../shared/ipc';

export type Names = ReturnType<typeof createNames>;

/** Deliverable and project names seen in answers, so an outbox item reads "“1” in Spring promo" even offline. */
export function createNames() {
  const deliverableNames = new Map<string, { name: string; projectId: string | null }>();
  const projectTitles = new Map<string, string>();
  const remember = (value: unknown) => {
    const v = value as { id?: unknown; title?: unknown; name?: unknown; serviceSubCategory?: unknown };
    if (typeof v?.id !== 'string') return;
    if (typeof v.title === 'string') projectTitles.set(v.id, v.title);
    else if (typeof v.name === 'string' && typeof v.serviceSubCategory === 'string')
      deliverableNames.set(v.id, { name: v.name, projectId: deliverableNames.get(v.id)?.projectId ?? null });
  };
  return {
    seen(value: unknown) {
      if (Array.isArray(value)) value.forEach(remember);
      else if (value && typeof value === 'object') {
        remember(value);
        const list = (value as { projects?: unknown }).projects;
        if (Array.isArray(list)) list.forEach(remember);
      }
    },
    deliverables(projectId: string, list: Deliverable[]) {
      for (const d of list) deliverableNames.set(d.id, { name: d.name, projectId });
    },
    describe(
      decision: OutboxDecision,
      library: Array<{
        deliverableId: string;
        deliverableName: string;
        projectId: string;
        projectTitle: string;
      }>,
    ): string {
      const titleOf = (projectId: string | null) =>
        (projectId && projectTitles.get(projectId)) ||
        library.find((i) => i.projectId === projectId)?.projectTitle ||
        null;
      if ('projectId' in decision) return titleOf(decision.projectId) ?? 'A project';
      const known = deliverableNames.get(decision.deliverableId);
      const item = library.find((i) => i.deliverableId === decision.deliverableId);
      const name = known?.name ?? item?.deliverableName;
      const title = titleOf(known?.projectId ?? item?.projectId ?? null);
      if (!name) return 'A deliverable';
      return title ? `“${name}” in ${title}` : `“${name}”`;
    },
  };
}
