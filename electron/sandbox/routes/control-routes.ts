// The sandbox's own control routes (README, "Control routes"): deliver now, expire sessions, a talent away,
// faults, reset. Any sandbox token may call them.
import type { Hono } from 'hono';
import { parseFaults } from '../faults';
import { SandboxError } from '../sandbox-error';
import { asObject } from './answers';
import type { AppDeps, Env } from './deps';
import type { RouteKit } from './route';

export function controlRoutes(app: Hono<Env>, deps: AppDeps, { now, control }: RouteKit): void {
  const { engine, faults } = deps;

  app.post(
    '/_sandbox/deliver',
    control(async ({ body }) => {
      const b = asObject(body);
      if (b.projectId !== undefined && typeof b.projectId !== 'string') {
        throw new SandboxError('BODY_WRONG_TYPE', 'projectId must be a string.');
      }
      return { delivered: await deps.deliverNow(b.projectId) };
    }),
  );
  // Every token from sign-in expires now (tests of "your session expired"); the built-in ones stay valid.
  app.post(
    '/_sandbox/sessions/expire',
    control(() => {
      let expired = 0;
      for (const record of deps.state().tokenRecords) {
        if (record.expiresAt !== undefined && record.expiresAt > now()) {
          record.expiresAt = now();
          expired++;
        }
      }
      return { expired };
    }),
  );
  app.post(
    '/_sandbox/deliverables/:id/talent-away',
    control(({ c, userId, body }) => {
      const until = asObject(body).until;
      if (typeof until !== 'string' || Number.isNaN(Date.parse(until))) {
        throw new SandboxError('BODY_WRONG_TYPE', 'until must be an ISO date.');
      }
      return engine.setTalentAway(userId, c.req.param('id')!, until);
    }),
  );
  app.post(
    '/_sandbox/faults',
    control(({ body }) => {
      const parsed = parseFaults(body);
      if (!parsed.ok) throw new SandboxError('BODY_WRONG_TYPE', parsed.message);
      faults.set(parsed.value);
      return faults.get();
    }),
  );
  app.get(
    '/_sandbox/faults',
    control(() => faults.get()),
  );
  app.delete(
    '/_sandbox/faults',
    control(() => {
      faults.clear();
      return faults.get();
    }),
  );
  app.post(
    '/_sandbox/reset',
    control(async () => {
      await deps.reset();
      return { reset: true };
    }),
  );
}
