import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorResponse, MAX_BODY_BYTES } from './routes/answers';
import { catalogueRoutes } from './routes/catalogue-routes';
import { controlRoutes } from './routes/control-routes';
import { deliverableRoutes } from './routes/deliverable-routes';
import type { AppDeps, Env } from './routes/deps';
import { mediaRoute } from './routes/media-route';
import { projectRoutes } from './routes/project-routes';
import { createRouteKit } from './routes/route';
import { signInRoutes } from './routes/sign-in';

export { errorResponse, FAILURE_CODES, MAX_BODY_BYTES } from './routes/answers';
export type { AppDeps, MediaFile, SandboxServices } from './routes/deps';

/**
 * Hono on @hono/node-server: small and fast, with web-standard Request/Response and typed routes; the media
 * route shares the app's ranged file answer and writes it straight to the node:http response when it can. A thin
 * front: the body limit, then the routes of routes/ (sign-in, projects, deliverables, catalogue, media, control).
 */
export function createApp(deps: AppDeps) {
  const app = new Hono<Env>();

  // Every route that reads a body: Content-Length over the limit is refused unread, a chunked body is
  // counted while it streams and refused at the first byte past the limit (the rest is discarded).
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        const answer = errorResponse(
          'BODY_TOO_LARGE',
          undefined,
          `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB, sandbox limit).`,
        );
        // The rest of the body is not read, so the connection cannot carry another request.
        answer.headers.set('connection', 'close');
        return answer;
      },
    }),
  );
  // Then the whole body (at most the limit) is read before any answer: one sent while the client is
  // still sending (FORBIDDEN is decided before the body is looked at) makes node:http drop the
  // connection under the client's next request on it ("other side closed"). Routes read it from cache.
  app.use('*', async (c, next) => {
    if (c.req.raw.body) await c.req.text().catch(() => undefined);
    await next();
  });
  const kit = createRouteKit(app, deps);
  signInRoutes(app, deps, kit);
  projectRoutes(app, deps, kit);
  deliverableRoutes(app, deps, kit);
  catalogueRoutes(app, deps, kit);
  mediaRoute(app, deps);
  controlRoutes(app, deps, kit);

  app.notFound(() => errorResponse('NOT_FOUND', undefined));
  app.onError((error) => {
    console.error('[sandbox]', error);
    return Response.json(
      { status: 500, type: 'INTERNAL', message: 'Unexpected sandbox error.' },
      { status: 500 },
    );
  });
  return app;
}
