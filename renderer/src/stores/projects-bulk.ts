import type { ProjectListItem } from '../../../shared/api';
import type { DownloadJob, ProjectDownloadSelection } from '../../../shared/ipc';
import type { ClientApi } from '../../../shared/ipc';

/**
 * What the projects list does to its selection: downloads or approvals of several projects, one after another.
 * A part of `useProjectsStore`.
 */
export function createProjectsBulk(
  api: ClientApi,
  downloadAll: (projectId: string, selection?: ProjectDownloadSelection) => Promise<DownloadJob[]>,
  patchListRow: (id: string, patch: Partial<ProjectListItem>) => void,
) {
  /**
   * Several projects at once (the list's selection), one after another so a long selection does not flood the
   * service. Each project's outcome is kept: one that fails never stops the others, and the caller says which.
   */
  async function eachProject<T>(
    ids: readonly string[],
    run: (id: string) => Promise<T>,
  ): Promise<{ done: { id: string; value: T }[]; failed: { id: string; error: unknown }[] }> {
    const done: { id: string; value: T }[] = [];
    const failed: { id: string; error: unknown }[] = [];
    for (const id of ids) {
      try {
        done.push({ id, value: await run(id) });
      } catch (error) {
        failed.push({ id, error });
      }
    }
    return { done, failed };
  }

  /** Queues the files of each selected project (the remembered formats; rejected takes left out). */
  function downloadProjects(ids: readonly string[], selection: ProjectDownloadSelection = {}) {
    return eachProject(ids, (id) => downloadAll(id, selection));
  }

  /**
   * Approves, in each selected project, the takes ready for review as listed right now (what the confirmation
   * counted); a take that arrives later is not approved unheard. Statuses in the list follow the answers.
   */
  function approveProjects(ids: readonly string[]) {
    return eachProject(ids, async (projectId) => {
      // What the service lists now, not what was loaded: the producer decides on it.
      const listed = await api.deliverables.list({ projectId, fresh: true });
      const reviewable = listed.items.filter((d) => d.status === 'reviewable').map((d) => d.id);
      if (reviewable.length === 0) return [];
      const approved = await api.deliverables.approveAll({ projectId, heard: { projectId, reviewable } });
      const project = await api.projects.get({ id: projectId, fresh: true }).catch(() => null);
      if (project?.status !== undefined) patchListRow(projectId, { status: project.status });
      return approved;
    });
  }

  return { downloadProjects, approveProjects };
}
