// The reference data routes: categories, their attributes and values, music tracks with their media URLs, and the
// OpenAPI document.
import type { Hono } from 'hono';
import { TracksQuery } from '../../../shared/api';
import type { MediaDescriptor } from '../engine';
import { SandboxError } from '../sandbox-error';
import { queryObject } from './answers';
import type { AppDeps, Env, Json } from './deps';
import type { RouteKit } from './route';

export function catalogueRoutes(app: Hono<Env>, deps: AppDeps, { route, missing }: RouteKit): void {
  const { services } = deps;

  // --- categories and tracks (docs/service.md#categories-attributes-and-tracks) ----------------
  app.get(
    '/categories',
    route('listCategories', {}, () => services.categories()),
  );
  app.get('/categories//attributes', missing('ID_REQUIRED', 'getAttributes'));
  app.get(
    '/categories/:id/attributes',
    route('getAttributes', {}, ({ c }) => services.attributes(c.req.param('id')!)),
  );
  app.get('/categories//attribute/:attributeId/values', missing('ID_REQUIRED', 'getAttributeValues'));
  app.get('/categories/:id/attribute//values', missing('ATTRIBUTE_ID_REQUIRED', 'getAttributeValues'));
  app.get(
    '/categories/:id/attribute/:attributeId/values',
    route('getAttributeValues', {}, ({ c }) =>
      services.attributeValues(c.req.param('id')!, c.req.param('attributeId')!),
    ),
  );
  const withUrls = (entry: {
    track: Record<string, unknown>;
    wav: MediaDescriptor;
    mp3: MediaDescriptor;
  }) => {
    const base = deps.baseUrl();
    return {
      ...entry.track,
      url: {
        wav: `${base}/media/${services.media.key(entry.wav)}.wav`,
        mp3: `${base}/media/${services.media.key(entry.mp3)}.mp3`,
      },
    };
  };
  app.get(
    '/tracks',
    route('listTracks', {}, ({ c }) => {
      const q = TracksQuery.parse(queryObject(c));
      return services.tracks(q).map(withUrls);
    }),
  );
  app.get(
    '/tracks/:id',
    route('getTrack', {}, ({ c }) => {
      const id = c.req.param('id')!;
      const found = /^\d+$/.test(id) ? services.tracks({}).find((t) => String(t.track.id) === id) : undefined;
      if (!found) throw new SandboxError('TRACK_NO_EXIST', `Track ${id} does not exist.`);
      return withUrls(found);
    }),
  );

  // --- OpenAPI -------------------------------------------------------------------------------
  app.get('/openapi.json', (c) => c.json(deps.openapi() as Json));
}
