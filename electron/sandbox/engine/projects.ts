// The project lifecycle: quote, order (with the first delivery owed), read, list, and cancel.
import { randomUUID } from 'node:crypto';
import { CreateProjectBody, isoNoZone } from '../../../shared/api';
import {
  validateCancelBody,
  validateCreateProject,
  validateQuote,
} from '../../../shared/api/validate-project';
import { SandboxError } from '../sandbox-error';
import type { DeliverableRecord, ProjectRecord, ServiceRecord } from '../state';
import type { Creatives } from './creatives';
import { check, SETTLED, type Json, type Store } from './store';
import { projectView } from './views';

/** Cancel reason when none is sent (docs/service.md#cancel-reasons). */
const DEFAULT_CANCEL_REASON = 'no_longer_needed';

export function createProjectOps(store: Store, creatives: Creatives) {
  const { deps, catalog, now, st, dueAt, findProject, deliverablesOf, setStatus } = store;
  const { deliverInitial } = creatives;

  function validated(body: unknown, forQuote = false): CreateProjectBody {
    const options = {
      ...catalog.validateOptions(typeof body === 'object' && body ? (body as Json).mainService : undefined),
      // The sandbox's own bounds (PROJECT_LIMITS): its 422, which the form on a live account never applies.
      accountKind: 'sandbox' as const,
    };
    check(forQuote ? validateQuote(body, options) : validateCreateProject(body, options));
    const parsed = CreateProjectBody.safeParse(forQuote ? { ...(body as Json), title: 'Quote' } : body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new SandboxError(
        'SERVICE_WRONG_TYPE',
        `${issue?.path.join('.') ?? 'body'}: ${issue?.message ?? ''}`,
      );
    }
    return parsed.data;
  }

  return {
    /** Validation and price of a `POST /quote` body. */
    quote(body: unknown) {
      const input = validated(body, true);
      return { input, priced: catalog.priceProject(input) };
    },

    createProject(userId: string, body: unknown): ProjectRecord {
      const input = validated(body);
      const priced = catalog.priceProject(input);
      const state = st();
      const project: ProjectRecord = {
        id: randomUUID(),
        ownerId: userId,
        title: input.title,
        mainService: input.mainService,
        fulfillmentType: input.fulfillmentType,
        created: isoNoZone(now()),
        status: 'paid',
        price: priced.price,
        fake: input.fake,
        test: input.test,
        remarks: input.remarks,
        services: input.services.map((service, i) => {
          const p = priced.services[i] ?? { price: 0, units: 0, unitType: 'words' };
          const extra: Json =
            service.subCategory === 'post-production'
              ? {
                  language:
                    input.services.find((s): s is typeof s & { language: string } => 'language' in s)
                      ?.language ?? 'eng-us',
                  backgroundMusic: 'audioads-music-library',
                }
              : {};
          return {
            ...service,
            ...extra,
            id: randomUUID(),
            price: p.price,
            status: 'paid',
            units: p.units,
            unitType: p.unitType,
          } as ServiceRecord;
        }),
        seq: ++state.seq,
      };
      state.projects[project.id] = project;
      state.work.push({ id: randomUUID(), projectId: project.id, kind: 'initial', dueAt: dueAt() });
      if (deps.liveShapes) {
        // As on the live service: the deliverables are there at once, without files until delivered.
        const staged: DeliverableRecord[] = [];
        deliverInitial(project, deps.liveShapes.mediaKey, staged);
        for (const d of staged) {
          d.status = 'unassigned';
          state.deliverables[d.id] = d;
        }
      }
      return project;
    },

    getProject(userId: string, id: string): ProjectRecord {
      return findProject(id, userId);
    },

    listProjects(
      userId: string,
      q: { page: number; pageSize: number; titleQuery: string; category: string },
    ) {
      const needle = q.titleQuery.toLowerCase();
      const owned = Object.values(st().projects).filter((p) => p.ownerId === userId);
      const mine = owned
        .filter((p) => !needle || p.title.toLowerCase().includes(needle))
        .filter((p) => !q.category || p.mainService === q.category)
        .sort((a, b) => b.seq - a.seq);
      // Live shapes: pages keep to the service's own maximum, and `total` counts every project of the account,
      // not those matching the filters (as the live docs define it).
      const pageSize = deps.liveShapes ? Math.min(q.pageSize, deps.liveShapes.pageSizeCap) : q.pageSize;
      const start = (q.page - 1) * pageSize;
      const total = deps.liveShapes ? owned.length : mine.length;
      return { page: q.page, total, projects: mine.slice(start, start + pageSize) };
    },

    cancelProject(userId: string, id: string, body: Json): Json {
      const project = findProject(id, userId);
      check(validateCancelBody(body));
      const reasonCode = typeof body.reasonCode === 'string' ? body.reasonCode : DEFAULT_CANCEL_REASON;
      if (project.status === 'canceled') throw new SandboxError('PROJECT_ALREADY_CANCELED');
      project.status = 'canceled';
      for (const s of project.services) s.status = 'canceled';
      project.cancel = { reason: typeof body.reason === 'string' ? body.reason : '', reasonCode };
      const state = st();
      state.work = state.work.filter((w) => w.projectId !== project.id);
      for (const d of deliverablesOf(project.id)) {
        if (!SETTLED.has(d.status)) {
          setStatus(d, 'rejected');
          delete d.pendingRevision;
        }
      }
      const { services: _services, remarks: _remarks, ...fields } = projectView(project);
      return { ...fields, reason: project.cancel.reason, reasonCode: project.cancel.reasonCode };
    },
  };
}
