import { describe, expect, it } from 'vitest';
import { CATEGORIES, isSearchAvailable, listAttributeValues, listAttributes } from './categories';
import { GENDER_AND_AGES, findGenderAndAge } from './gender-and-age';
import { LANGUAGES, findLanguage, isLanguageActive } from './languages';
import { DEFAULT_PURPOSE, PURPOSES, findPurpose } from './purposes';
import { TRACKS, filterTracks, findTrack } from './tracks';
import { DEFAULT_VOICE_PERSPECTIVE, VOICE_PERSPECTIVES } from './voice-perspectives';

describe('languages and options', () => {
  it('has the 65 legacy languages in the live id form', () => {
    expect(LANGUAGES).toHaveLength(65);
    expect(new Set(LANGUAGES.map((l) => l.id)).size).toBe(65);
    expect(findLanguage('eng-us')?.name).toBe('English - North America');
    expect(findLanguage('deu-de')?.name).toBe('German');
    for (const l of LANGUAGES) expect(l.id).toMatch(/^[a-z]{3}(-[a-z]+)?$/);
  });

  it('marks character-billed and inactive languages', () => {
    expect(findLanguage('jpn-jp')?.characterBilled).toBe(true);
    expect(findLanguage('cmn-zh')?.characterBilled).toBe(true);
    expect(findLanguage('eng-us')?.characterBilled).toBe(false);
    expect(isLanguageActive('eng-us', 'voice_over')).toBe(true);
    expect(isLanguageActive('wuu-zh', 'voice_over')).toBe(false);
    expect(isLanguageActive('cym-gb', 'voice_over')).toBe(true);
    expect(isLanguageActive('cym-gb', 'audio_ads')).toBe(false);
    expect(isLanguageActive('xx-yy', 'voice_over')).toBe(false);
  });

  it('has the legacy genders and ages, baby inactive, with ordered pitch ranges', () => {
    expect(GENDER_AND_AGES.map((g) => g.id)).toEqual([
      'baby',
      'child',
      'teenageGirl',
      'teenageBoy',
      'youngAdultFemale',
      'youngAdultMale',
      'middleAgeFemale',
      'middleAgeMale',
      'seniorFemale',
      'seniorMale',
    ]);
    expect(findGenderAndAge('baby')?.active).toBe(false);
    for (const g of GENDER_AND_AGES) expect(g.pitchHz[0]).toBeLessThan(g.pitchHz[1]);
    expect(findGenderAndAge('child')!.pitchHz[0]).toBeGreaterThan(
      findGenderAndAge('youngAdultMale')!.pitchHz[1],
    );
  });

  it('purposes have unique string and numeric ids; defaults match the spec', () => {
    expect(PURPOSES[0]!.id).toBe(DEFAULT_PURPOSE);
    expect(new Set(PURPOSES.map((p) => p.numericId)).size).toBe(PURPOSES.length);
    expect(findPurpose(4)?.id).toBe('elearning');
    expect(findPurpose('4')?.id).toBe('elearning');
    expect(findPurpose('podcast')?.numericId).toBe(8);
    expect(findPurpose(99)).toBeUndefined();
    expect(VOICE_PERSPECTIVES[0]!.id).toBe(DEFAULT_VOICE_PERSPECTIVE);
    expect(DEFAULT_VOICE_PERSPECTIVE).toBe('service-pro-choice');
  });
});

describe('categories', () => {
  it('lists voice_over and audio_ads with their subcategories and formats', () => {
    expect(CATEGORIES[0]).toEqual({
      id: 'voice_over',
      name: 'voice',
      subCategories: [{ id: 'voice_over', brandName: 'Voice over', formats: ['mp3', 'wav'] }],
    });
    const ads = CATEGORIES.find((c) => c.id === 'audio_ads')!;
    expect(ads.subCategories.map((s) => [s.id, s.formats])).toEqual([
      ['scriptwriting', ['pdf']],
      ['voice_over', ['mp3', 'wav']],
      ['post-production', ['mp3', 'wav']],
    ]);
  });

  it('answers attributes, values and each error code', () => {
    const attrs = listAttributes('voice_over');
    expect(attrs.ok && attrs.value.find((a) => a.id === 'language')?.defaultValue).toBe('eng-us');
    expect(listAttributes('music')).toMatchObject({ ok: false, code: 'CATEGORY_NOT_AUTHORIZED' });
    const langs = listAttributeValues('voice_over', 'language');
    expect(langs.ok && langs.value.some((v) => v.id === 'eng-us')).toBe(true);
    expect(langs.ok && langs.value.some((v) => v.id === 'wuu-zh')).toBe(false);
    const voices = listAttributeValues('voice_over', 'genderAndAge');
    expect(voices.ok && voices.value.map((v) => v.id)).not.toContain('baby');
    expect(listAttributeValues('audio_ads', 'voicePerspective')).toMatchObject({ ok: true });
    expect(listAttributeValues('voice_over', 'voicePerspective')).toMatchObject({
      ok: false,
      code: 'ATTRIBUTE_NOT_CATEGORY',
    });
    expect(listAttributeValues('voice_over', 'script')).toMatchObject({
      ok: false,
      code: 'ATTRIBUTE_NO_VALUES',
    });
    expect(listAttributeValues('audio_ads', 'seconds')).toMatchObject({
      ok: false,
      code: 'ATTRIBUTE_NO_VALUES',
    });
    expect(listAttributeValues('nope', 'language')).toMatchObject({
      ok: false,
      code: 'CATEGORY_NOT_AUTHORIZED',
    });
    expect(isSearchAvailable('voice_over')).toBe(true);
    expect(isSearchAvailable('audio_ads')).toBe(false);
  });
});

describe('tracks', () => {
  it('has 24 tracks with track 20 = Casual1 mood/casual', () => {
    expect(TRACKS).toHaveLength(24);
    expect(new Set(TRACKS.map((t) => t.id)).size).toBe(24);
    expect(findTrack(20)).toEqual({
      id: 20,
      fileName: 'Casual1',
      type: 'mood',
      typeLabel: 'Mood',
      subType: 'casual',
      subTypeLabel: 'Casual',
    });
    expect(findTrack('20')?.id).toBe(20);
    expect(findTrack(999)).toBeUndefined();
  });

  it('filters by type and subtype', () => {
    expect(filterTracks({})).toHaveLength(24);
    expect(filterTracks({ typeId: 'mood' })).toHaveLength(12);
    expect(filterTracks({ typeId: 'genre', subtypeId: 'jazz' }).map((t) => t.fileName)).toEqual([
      'Jazz1',
      'Jazz2',
    ]);
    expect(filterTracks({ typeId: 'mood', subtypeId: 'jazz' })).toEqual([]);
  });
});
