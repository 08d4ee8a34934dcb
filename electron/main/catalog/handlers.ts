/**
 * The catalog's part of the handler map: what can be ordered (categories, their attributes and values, tracks) and
 * the samples search, read from the active profile's service.
 */
import type { HandlersIn } from '../kernel/handler-types';
import type { LiveGuard } from '../profiles';
import type { ProfilesPort } from '../profiles';

export interface CatalogHandlerDeps {
  profiles: Pick<ProfilesPort, 'active'>;
  documentedOnly: LiveGuard;
  /** Remembers an answer's media links (they can be played). */
  seen: <T>(value: T) => T;
}

export function createCatalogHandlers(deps: CatalogHandlerDeps): HandlersIn<'catalog' | 'samples'> {
  const api = async () => (await deps.profiles.active()).client;
  const { seen, documentedOnly } = deps;
  return {
    'catalog.categories': async () => (await api()).listCategories(),
    'catalog.attributes': async ({ categoryId }) => (await api()).getAttributes(categoryId),
    'catalog.attributeValues': async ({ categoryId, attributeId }) =>
      (await api()).getAttributeValues(categoryId, attributeId),
    'catalog.tracks': async (input) => seen(await (await api()).listTracks(input ?? {})),

    'samples.search': async (input) => {
      await documentedOnly('search', input);
      return seen(await (await api()).search(input));
    },
  };
}
