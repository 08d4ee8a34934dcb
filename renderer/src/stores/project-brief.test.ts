import { describe, expect, it } from 'vitest';
import type { Project } from '../../../shared/api';
import { briefOf, musicText, scriptForDeliverable, toneText } from './project-brief';

const voiceOver = {
  mainService: 'voice_over',
  services: [
    {
      id: 's1',
      subCategory: 'voice_over',
      price: 10,
      status: 'paid',
      language: 'eng-uk',
      genderAndAge: 'middleAgeFemale',
      purpose: 'elearning',
      remarks: 'Warm, unhurried.',
      script: [{ part001: 'Fresh bread every morning.' }, { part002: 'Visit us today.' }],
    },
  ],
} as unknown as Project;

const audioAd = {
  mainService: 'audio_ads',
  services: [
    { id: 'p', subCategory: 'post-production', price: 1, status: 'paid', seconds: 30, trackId: 20 },
    {
      id: 'w',
      subCategory: 'scriptwriting',
      price: 1,
      status: 'paid',
      language: 'fra-fr',
      topic: 'Bakery',
      purpose: 'Sell more bread',
      voicePerspective: 'secondPerson',
      tone: { seriousHumorous: 2, conciseWordy: -1, sincereSarcastic: 0 },
    },
    {
      id: 'v',
      subCategory: 'voice_over',
      price: 1,
      status: 'paid',
      language: 'fra-fr',
      genderAndAge: 'child',
    },
  ],
} as unknown as Project;

describe('briefOf', () => {
  it('says a voice over in catalogue names, with its script in parts', () => {
    const [section] = briefOf(voiceOver);
    expect(section!.facts.map((f) => [f.label, f.value])).toEqual([
      ['Language', 'English - British'],
      ['Voice', 'Middle age female'],
      ['Purpose', 'E-learning'],
      ['Remarks', 'Warm, unhurried.'],
    ]);
    expect(section!.script).toEqual([
      { number: 1, text: 'Fresh bread every morning.' },
      { number: 2, text: 'Visit us today.' },
    ]);
  });

  it('orders an audio ad as the work happens and names perspective, tone and music', () => {
    const sections = briefOf(audioAd);
    expect(sections.map((s) => s.subCategory)).toEqual(['scriptwriting', 'voice_over', 'post-production']);
    const writing = Object.fromEntries(sections[0]!.facts.map((f) => [f.key, f.value]));
    expect(writing).toMatchObject({
      language: 'French - European',
      perspective: 'Second person (you)',
      tone: 'very humorous, rather concise',
      purpose: 'Sell more bread',
    });
    expect(sections[2]!.facts.find((f) => f.key === 'music')!.value).toBe('Casual1 (Mood: Casual)');
    expect(JSON.stringify(sections)).not.toMatch(/secondPerson|fra-fr|"child"|trackId/);
  });
});

describe('musicText / toneText', () => {
  it.each([
    [{ trackId: 20 }, 'Casual1 (Mood: Casual)'],
    [{ trackId: 9999 }, 'Library track 9999'],
    [{ ownMusicFile: 'https://x/y.mp3' }, 'Your own music file'],
    [{ proSelectsMusic: true }, 'The pro chooses the music'],
    [{}, 'No music'],
  ])('%j -> %s', (service, text) => {
    expect(musicText(service)).toBe(text);
  });
  it('leaves neutral sliders out', () => {
    expect(toneText({ seriousHumorous: 0 })).toBe('');
    expect(toneText(undefined)).toBe('');
  });
});

describe('scriptForDeliverable', () => {
  it.each([
    ['1', { text: 'Fresh bread every morning.', source: 'Part 1 of 2' }],
    ['2', { text: 'Visit us today.', source: 'Part 2 of 2' }],
    ['Entry 1 (Ana)', { text: 'Fresh bread every morning.\n\nVisit us today.', source: 'Whole script' }],
  ])('voice over deliverable %s', (name, script) => {
    expect(scriptForDeliverable(voiceOver, { serviceSubCategory: 'voice_over', name })).toEqual(script);
  });

  it('in an audio ad reads the approved written script, else the newest', () => {
    const written = (content: string, status: string) => ({
      serviceSubCategory: 'scriptwriting',
      status,
      urls: { content },
    });
    const vo = { serviceSubCategory: 'voice_over', name: 'Voice over' };
    expect(scriptForDeliverable(audioAd, vo, [written('A', 'rejected'), written('B', 'reviewable')])).toEqual(
      {
        text: 'B',
        source: 'Written script',
      },
    );
    expect(
      scriptForDeliverable(audioAd, vo, [written('A', 'approved'), written('B', 'reviewable')])!.text,
    ).toBe('A');
    expect(scriptForDeliverable(audioAd, vo, [])).toBeNull();
    expect(scriptForDeliverable(null, vo)).toBeNull();
  });
});
