// The deliverable and revision routes: list, read, approve (one or all), reject, pick a winner, the versions of a
// take, and asking for a revision.
import type { Hono } from 'hono';
import type { Operation } from '../../../shared/api';
import { SandboxError } from '../sandbox-error';
import { asObject } from './answers';
import type { AppDeps, Env, Json } from './deps';
import type { RouteKit } from './route';

const deliverableOp = (body: unknown): Operation => {
  const status = typeof body === 'object' && body !== null ? (body as Json).status : undefined;
  if (status === 'rejected') return 'rejectDeliverable';
  if (status === 'winner') return 'selectWinner';
  return 'approveDeliverable';
};

export function deliverableRoutes(
  app: Hono<Env>,
  deps: AppDeps,
  { route, missing, withoutId }: RouteKit,
): void {
  const { engine } = deps;

  // --- deliverables --------------------------------------------------------------------------
  withoutId('GET', '/deliverables/project', 'listDeliverables', { type: 'PROJECT_ID_REQUIRED' });
  withoutId('PUT', '/deliverables/project', 'approveAll', { needsBody: true });
  app.get(
    '/deliverables/project/:projectId',
    route('listDeliverables', {}, ({ c, userId, base }) =>
      engine.listDeliverables(userId, c.req.param('projectId')!, base),
    ),
  );
  app.put(
    '/deliverables/project/:projectId',
    route('approveAll', { body: true, mutates: true }, ({ c, userId, body }) =>
      engine.approveAll(userId, c.req.param('projectId')!, asObject(body)),
    ),
  );
  withoutId('GET', '/deliverables', 'getDeliverable');
  withoutId('PUT', '/deliverables', 'approveDeliverable', { needsBody: true });
  app.get(
    '/deliverables/:id',
    route('getDeliverable', {}, ({ c, userId, base }) =>
      engine.getDeliverable(userId, c.req.param('id')!, base),
    ),
  );
  app.put(
    '/deliverables/:id',
    route(deliverableOp, { body: true, mutates: true }, ({ c, userId, body }) => {
      const b = asObject(body);
      const id = c.req.param('id')!;
      if (b.status === 'approved') return engine.approveDeliverable(userId, id);
      if (b.status === 'rejected') return engine.rejectDeliverable(userId, id, b);
      if (b.status === 'winner') return engine.selectWinner(userId, id);
      throw new SandboxError('STATUS_NOT_ALLOWED', 'status must be approved, rejected or winner.');
    }),
  );

  // --- revisions -----------------------------------------------------------------------------
  app.get('/revisions//versions', missing('ID_REQUIRED', 'listVersions'));
  app.get('/revisions/versions', missing('ID_REQUIRED', 'listVersions'));
  app.get(
    '/revisions/:deliverableId/versions',
    route('listVersions', { scope: 'versions' }, ({ c, userId, base }) =>
      engine.listVersions(userId, c.req.param('deliverableId')!, base),
    ),
  );
  withoutId('POST', '/revisions', 'createRevision', { needsBody: true });
  app.post(
    '/revisions/:deliverableId',
    route('createRevision', { body: true, mutates: true }, ({ c, userId, body }) =>
      engine.createRevision(userId, c.req.param('deliverableId')!, asObject(body)),
    ),
  );
}
