// The project routes: list, order, read and cancel a project, the quote, and the search of samples.
import type { Hono } from 'hono';
import { ListProjectsQuery, SearchQuery, UNIT_TYPES } from '../../../shared/api';
import { SandboxError } from '../sandbox-error';
import { asObject, queryObject } from './answers';
import type { AppDeps, Env } from './deps';
import type { RouteKit } from './route';

export function projectRoutes(app: Hono<Env>, deps: AppDeps, { route, withoutId }: RouteKit): void {
  const { engine, services } = deps;

  // --- projects ------------------------------------------------------------------------------
  const listProjects = route('listProjects', {}, ({ c, userId }) => {
    const q = ListProjectsQuery.safeParse(queryObject(c));
    if (!q.success)
      throw new SandboxError('QUERY_WRONG_TYPE', 'page and pageSize must be positive integers.');
    return engine.listProjects(userId, q.data);
  });
  app.get('/projects', listProjects);
  app.get('/projects/', listProjects);
  app.post(
    '/projects',
    route('createProject', { body: true, mutates: true }, ({ userId, body }) =>
      engine.projectView(engine.createProject(userId, body)),
    ),
  );
  app.get(
    '/projects/:id',
    route('getProject', {}, ({ c, userId }) =>
      engine.projectView(engine.getProject(userId, c.req.param('id')!)),
    ),
  );
  withoutId('PUT', '/projects', 'cancelProject', { needsBody: true });
  app.put(
    '/projects/:id',
    route('cancelProject', { body: true, mutates: true }, ({ c, userId, body }) =>
      engine.cancelProject(userId, c.req.param('id')!, asObject(body)),
    ),
  );

  // --- quote (docs/service.md#quote) ----------------------------------------------------------
  app.post(
    '/quote',
    route('quote', { body: true }, ({ body }) => {
      const b = asObject(body);
      // Quote takes a project body without title (docs/service.md#quote); validate it as a project with a
      // title.
      const { input, priced } = engine.quote({ ...b, title: 'Quote' });
      return {
        mainService: input.mainService,
        fulfillmentType: input.fulfillmentType,
        price: priced.price,
        services: input.services.map((s, i) => ({ subCategory: s.subCategory, ...priced.services[i] })),
      };
    }),
  );

  // --- search --------------------------------------------------------------------------------
  app.get(
    '/search',
    route('search', { scope: 'search' }, ({ c }) => {
      const raw = queryObject(c);
      if (!raw.categoryId) throw new SandboxError('CATEGORY_ID_REQUIRED', 'categoryId is required.');
      const q = SearchQuery.safeParse(raw);
      if (!q.success) {
        const issue = q.error.issues[0];
        throw new SandboxError(
          'QUERY_WRONG_TYPE',
          `${issue?.path.join('.') ?? 'query'}: ${issue?.message ?? ''}`,
        );
      }
      if (!(UNIT_TYPES as readonly string[]).includes(q.data.unitType))
        throw new SandboxError('UNITTYPE_NOT_ALLOWED');
      const result = services.search(q.data);
      const base = deps.baseUrl();
      return {
        page: result.page,
        totalPages: result.totalPages,
        total: result.total,
        samples: result.samples.map(({ sample, mp3 }) => ({
          ...sample,
          url: `${base}/media/${services.media.key(mp3)}.mp3`,
        })),
      };
    }),
  );
}
