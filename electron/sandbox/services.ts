import type { CreateProjectBody } from '../../shared/api';
import { isCharacterBilled, scriptUnits, type ScriptInput } from '../../shared/api/validate-project';
import type { SandboxServices } from './app';
import { CATEGORIES, listAttributeValues, listAttributes } from '../../shared/catalogue/categories';
import { GENDER_AND_AGES } from '../../shared/catalogue/gender-and-age';
import { LANGUAGES } from '../../shared/catalogue/languages';
import { createProCatalogue, sampleMedia, searchPros, type Pro } from './data/pros';
import { priceProject, scriptUnitsForSeconds, type ServiceUnits } from './data/rates';
import { createTalentRoster } from './data/talents';
import { filterTracks } from '../../shared/catalogue/tracks';
import { trackMedia } from './data/track-media';
import type { SandboxCatalog, Talent } from './engine';
import { createMediaStore } from './media/media-store';
import { SandboxError } from './sandbox-error';

/** Reference data (electron/sandbox/data) and generated media (electron/sandbox/media) as the HTTP layer needs them. */
export async function createSandboxServices(options: {
  mediaDir: string;
  pros?: readonly Pro[];
}): Promise<SandboxServices> {
  const store = createMediaStore({ dir: options.mediaDir });
  const pros = options.pros ?? createProCatalogue();
  const unwrap = <T>(result: { ok: true; value: T } | { ok: false; code: string; message: string }): T => {
    if (!result.ok) throw new SandboxError(result.code, result.message);
    return result.value;
  };
  return {
    categories: () => structuredClone(CATEGORIES) as unknown[],
    attributes: (categoryId) => unwrap(listAttributes(categoryId)),
    attributeValues: (categoryId, attributeId) => unwrap(listAttributeValues(categoryId, attributeId)),
    tracks: (query) =>
      filterTracks(query).map((track) => ({
        track: { ...track },
        wav: trackMedia(track, 'wav'),
        mp3: trackMedia(track, 'mp3'),
      })),
    search(query) {
      const page = unwrap(searchPros(query, pros));
      return {
        page: page.page,
        totalPages: page.totalPages,
        total: page.total,
        samples: page.samples.map((sample) => ({ sample: { ...sample }, mp3: sampleMedia(sample) })),
      };
    },
    media: {
      key: store.mediaKey,
      describe: store.describe,
      ensure: store.ensure,
      streamFirst: store.streamFirst,
    },
  };
}

/** Length of an audio ad: the script writing seconds, else the post production seconds, else 30 (sandbox choice). */
export function adSeconds(services: CreateProjectBody['services']): number {
  for (const sub of ['scriptwriting', 'post-production']) {
    const s = services.find((x) => x.subCategory === sub);
    if (s && 'seconds' in s && typeof s.seconds === 'number') return s.seconds;
  }
  return 30;
}

/** Units of each service as the rate card prices them (issue 3 item 4). */
export function serviceUnits(body: CreateProjectBody): ServiceUnits[] {
  if (body.mainService === 'voice_over') {
    return body.services.map((s) => ({
      subCategory: s.subCategory,
      ...scriptUnits(s.script as ScriptInput, s.language),
    }));
  }
  const seconds = adSeconds(body.services);
  return body.services.map((s) => {
    if (s.subCategory === 'scriptwriting') {
      return {
        subCategory: s.subCategory,
        seconds: s.seconds,
        ...scriptUnitsForSeconds(s.seconds, isCharacterBilled(s.language)),
      };
    }
    const own = s.subCategory === 'post-production' ? s.seconds : seconds;
    return { subCategory: s.subCategory, units: own, unitType: 'seconds' as const, seconds: own };
  });
}

/** Seed data, rate card and talents for the engine. */
export function createSandboxCatalog(
  options: { pros?: readonly Pro[]; now?: () => Date } = {},
): SandboxCatalog {
  const pros = options.pros ?? createProCatalogue();
  const now = options.now ?? (() => new Date());
  const roster = createTalentRoster({ pros });
  const activeGenderAndAges = new Set(GENDER_AND_AGES.filter((g) => g.active).map((g) => g.id));
  const activeFor = (service: 'voice_over' | 'audio_ads') =>
    new Set(LANGUAGES.filter((l) => l.active[service]).map((l) => l.id));
  const activeLanguages = { voice_over: activeFor('voice_over'), audio_ads: activeFor('audio_ads') };
  const available = (p: Pro) => roster.awayUntil(p.publicId, now()) === null;
  const asTalent = (p: Pro): Talent => ({ id: p.publicId, name: p.fullName });

  return {
    validateOptions: (mainService) => ({
      activeGenderAndAges,
      activeLanguages: mainService === 'audio_ads' ? activeLanguages.audio_ads : activeLanguages.voice_over,
    }),
    priceProject(body) {
      const priced = priceProject({
        mainService: body.mainService,
        fulfillmentType: body.fulfillmentType,
        services: serviceUnits(body),
      });
      if (!priced.ok) throw new SandboxError(priced.code, priced.message);
      return priced.value;
    },
    // Work goes to talents who are available now, so a fresh deliverable never starts "on vacation".
    talents(seed, count, wanted) {
      if (count === 1) {
        for (let i = 0; i < 20; i++) {
          const pro = roster.talentFor(i === 0 ? seed : `${seed}:${i}`, wanted);
          if (available(pro)) return [asTalent(pro)];
        }
        return [asTalent(roster.talentFor(seed, wanted))];
      }
      const entrants = roster
        .contestEntrants(seed, count * 3, wanted)
        .filter(available)
        .slice(0, count);
      return (entrants.length > 0 ? entrants : roster.contestEntrants(seed, count, wanted)).map(asTalent);
    },
    awayUntil: (talentId, at) => roster.awayUntil(talentId, at)?.toISOString().slice(0, 10) ?? null,
  };
}
