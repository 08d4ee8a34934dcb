// The deliverable routes: reads (latest files, versions) and the producer's decisions on a take: approve,
// approve all, reject (a replacement is owed), ask for a revision (a new version is owed), and the talent-away
// control route a revision checks.
import { randomUUID } from 'node:crypto';
import { isoNoZone, talentAwayMessage } from '../../../shared/api';
import {
  DEFAULT_REVISION_CODE,
  REJECT_REASONS,
  REVISION_REASONS,
  revisionCodesFor,
} from '../../../shared/api/reasons';
import {
  validateApproveAllBody,
  validateRejectBody,
  validateRevisionBody,
} from '../../../shared/api/validate-project';
import { SandboxError } from '../sandbox-error';
import { check, ownValue, type Json, type Store } from './store';
import { summary, urls } from './views';

const REJECT_CODES: ReadonlySet<string> = new Set(REJECT_REASONS.map((r) => r.code));
const REVISION_REASON_SET: ReadonlySet<string> = new Set(REVISION_REASONS.map((r) => r.code));

export function createDeliverableOps(store: Store) {
  const { deps, catalog, now, st, dueAt, findProject, findDeliverable, deliverablesOf, settle, setStatus } =
    store;

  return {
    listDeliverables(userId: string, projectId: string, base: string): Json[] {
      findProject(projectId, userId);
      return deliverablesOf(projectId).map((d) => ({ ...summary(d), urls: urls(d.versions.at(-1), base) }));
    },

    getDeliverable(userId: string, id: string, base: string): Json {
      const { d } = findDeliverable(id, userId);
      return { ...summary(d), urls: urls(d.versions.at(-1), base) };
    },

    listVersions(userId: string, id: string, base: string): Json {
      const { d } = findDeliverable(id, userId);
      // The spec shows no decision dates; the sandbox knows them and says them, except in live shapes.
      const dated = !deps.liveShapes;
      return {
        ...summary(d),
        ...(dated && d.statusChanged ? { statusChanged: d.statusChanged } : {}),
        versions: d.versions.map((v) => ({
          created: v.created,
          instructions: v.instructions,
          ...(dated && v.requested ? { requested: v.requested } : {}),
          urls: urls(v, base),
        })),
      };
    },

    approveDeliverable(userId: string, id: string): Json {
      const { d, project } = findDeliverable(id, userId);
      if (d.status === 'approved') throw new SandboxError('DELIVERABLE_ALREADY_APPROVED');
      if (d.status !== 'reviewable') throw new SandboxError('DELIVERABLE_NOT_PENDING_REVIEW');
      setStatus(d, 'approved');
      settle(project);
      return summary(d);
    },

    rejectDeliverable(userId: string, id: string, body: Json): Json {
      const { d, project } = findDeliverable(id, userId);
      check(
        validateRejectBody(body, {
          allowedCodes: REJECT_CODES,
          activeGenderAndAges: catalog.validateOptions(project.mainService).activeGenderAndAges,
        }),
      );
      const reasonCode = typeof body.reasonCode === 'string' ? body.reasonCode : null;
      const newGenderAndAge = typeof body.newGenderAndAge === 'string' ? body.newGenderAndAge : null;
      if (d.status === 'rejected') throw new SandboxError('DELIVERABLE_ALREADY_REJECTED');
      setStatus(d, 'rejected');
      delete d.pendingRevision;
      const state = st();
      state.work = state.work.filter((w) => !(w.kind === 'revision' && w.deliverableId === d.id));
      d.rejection = {
        reason: typeof body.reason === 'string' ? body.reason : null,
        reasonCode,
        newGenderAndAge,
      };
      if (project.status !== 'canceled') {
        state.work.push({
          id: randomUUID(),
          projectId: project.id,
          kind: 'replacement',
          deliverableId: d.id,
          dueAt: dueAt(),
        });
      }
      settle(project);
      return { ...summary(d), ...d.rejection };
    },
    createRevision(userId: string, id: string, body: Json): Json {
      const { d, project } = findDeliverable(id, userId);
      check(
        validateRevisionBody(body, {
          allowedCodes: new Set(revisionCodesFor(d.serviceSubCategory).map((r) => r.code)),
          allowedReasons: project.mainService === 'audio_ads' ? REVISION_REASON_SET : undefined,
        }),
      );
      const instructions = body.instructions as string;
      const checkTalent = body.checkTalent === true;
      if (d.status === 'rejected' || project.status === 'canceled')
        throw new SandboxError('DELIVERABLE_REJECTED');
      if (d.status === 'revisionRequested') throw new SandboxError('DELIVERABLE_PENDING_REVISION');
      if (checkTalent) {
        const until =
          ownValue(st().talentAway, d.talent.id) ?? catalog.awayUntil?.(d.talent.id, now()) ?? undefined;
        if (until && Date.parse(until) > now().getTime()) {
          throw new SandboxError('TALENT_ON_VACATION', talentAwayMessage(until));
        }
      }
      const revision = {
        instructions,
        reason: typeof body.reason === 'string' ? body.reason : null,
        // The live service applies its paid default when no code is sent (docs/service.md#revision-codes).
        revisionCode: typeof body.revisionCode === 'string' ? body.revisionCode : DEFAULT_REVISION_CODE,
        checkTalent,
      };
      setStatus(d, 'revisionRequested');
      d.pendingRevision = { ...revision, requested: isoNoZone(now()) };
      st().work.push({
        id: randomUUID(),
        projectId: project.id,
        kind: 'revision',
        deliverableId: d.id,
        dueAt: dueAt(),
      });
      settle(project);
      return { ...summary(d), ...revision };
    },

    approveAll(userId: string, projectId: string, body: Json): Json[] {
      const project = findProject(projectId, userId);
      check(validateApproveAllBody(body));
      const reviewable = deliverablesOf(project.id).filter((d) => d.status === 'reviewable');
      if (reviewable.length === 0) {
        if (project.status === 'completed') throw new SandboxError('PROJECT_ALREADY_APPROVED');
        throw new SandboxError('PROJECT_NOT_PENDING_APPROVAL');
      }
      for (const d of reviewable) setStatus(d, 'approved');
      settle(project);
      return reviewable.map(summary);
    },

    /** Sets the talent of a deliverable away until the given date (control route). */
    setTalentAway(userId: string, id: string, until: string): Json {
      const { d } = findDeliverable(id, userId);
      st().talentAway[d.talent.id] = until;
      return { deliverableId: d.id, talentId: d.talent.id, until };
    },
  };
}
