import { countUnits, scriptUnits, type ScriptInput } from '../../shared/api/validate-project';
import type { SandboxServices } from './app';
import { GENDER_AND_AGES } from './data/gender-and-age';
import type { SandboxCatalog } from './engine';
import { SandboxError } from './sandbox-error';
import { createMediaStore } from './media/media-store';

// Interim wiring: media comes from the media store; categories, tracks, search, talents and the rate card
// are waiting for electron/sandbox/data (H3). Until then search/tracks answer empty and prices use a flat rate.

/** Reference data and media the HTTP layer serves. */
export async function createSandboxServices(options: { mediaDir: string }): Promise<SandboxServices> {
  const store = createMediaStore({ dir: options.mediaDir });
  return {
    categories: () => [],
    attributes: () => [],
    attributeValues: () => [],
    tracks: () => [],
    search: () => {
      throw new SandboxError('SEARCH_NOT_RESULTS');
    },
    media: { key: store.mediaKey, describe: store.describe, ensure: store.ensure },
  };
}

/** Seed data and pricing for the engine. */
export function createSandboxCatalog(): SandboxCatalog {
  return {
    validateOptions: {
      activeGenderAndAges: new Set(GENDER_AND_AGES.filter((g) => g.active).map((g) => g.id)),
    },
    priceProject(body) {
      const services = body.services.map((s) => {
        if ('script' in s) {
          const { units, unitType } = scriptUnits(s.script as ScriptInput, s.language);
          return {
            price: Math.round(units * (unitType === 'words' ? 0.1 : 0.04) * 100) / 100,
            units,
            unitType,
          };
        }
        const seconds = 'seconds' in s ? s.seconds : 30;
        return {
          price: seconds,
          units: seconds,
          unitType: s.subCategory === 'scriptwriting' ? countUnits('', 'eng-us').unitType : 'seconds',
        };
      });
      return { price: services.reduce((sum, s) => sum + s.price, 0), services };
    },
    talents: (seed, count) =>
      Array.from({ length: count }, (_, i) => ({ id: `${seed}#${i}`, name: `Talent ${i + 1}` })),
  };
}
