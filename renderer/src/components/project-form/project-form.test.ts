import { describe, expect, it } from 'vitest';
import { validateCreateProject, validateQuote } from '../../../../shared/api/validate-project';
import {
  buildBody,
  buildQuoteBody,
  emptyForm,
  errorAt,
  errorsByPath,
  fieldCount,
  fieldErrors,
  fieldNames,
  formIssues,
  plainMessage,
  prefillFromSample,
  sampleOrderFromQuery,
  sampleOrderQuery,
  sectionPath,
  serviceErrorPaths,
  type ProjectForm,
} from './project-form';

function voiceOver(): ProjectForm {
  const form = emptyForm();
  form.title = '  Spring promo  ';
  form.voiceOver = {
    language: 'eng-us',
    genderAndAge: 'youngAdultFemale',
    purpose: 'radioTvAds',
    script: [
      { key: 'a', text: 'Hello there' },
      { key: 'b', text: '   ' },
      { key: 'c', text: 'Second part' },
    ],
  };
  return form;
}

function audioAds(): ProjectForm {
  const form = emptyForm();
  form.mainService = 'audio_ads';
  form.title = 'Radio spot';
  Object.assign(form.scriptwriting, {
    language: 'eng-us',
    topic: 'Shoes',
    purpose: 'Sell shoes',
    targetAudience: 'Runners',
  });
  form.scriptwriting.tone.seriousHumorous = -2;
  form.scriptwriting.assetsFiles = [' https://example.com/brief.pdf ', ''];
  Object.assign(form.adsVoiceOver, { language: 'eng-us', genderAndAge: 'middleAgeMale' });
  return form;
}

describe('buildBody', () => {
  it('builds a voice over body the shared validator accepts, parts renumbered and blanks dropped', () => {
    const body = buildBody(voiceOver());
    expect(body).toMatchObject({
      title: 'Spring promo',
      mainService: 'voice_over',
      fulfillmentType: 'speedy',
      remarks: '',
    });
    expect((body.services as Array<Record<string, unknown>>)[0]!.script).toEqual([
      { part001: 'Hello there' },
      { part002: 'Second part' },
    ]);
    expect(validateCreateProject(body)).toEqual([]);
  });

  it('builds an audio ads body with the three services in order and only the chosen music field', () => {
    const form = audioAds();
    const services = buildBody(form).services as Array<Record<string, unknown>>;
    expect(services.map((s) => s.subCategory)).toEqual(['scriptwriting', 'voice_over', 'post-production']);
    expect(services[0]!.assetsFiles).toEqual(['https://example.com/brief.pdf']);
    expect(services[0]!.tone).toMatchObject({ seriousHumorous: -2, conciseWordy: 0 });
    expect(services[2]).toEqual({ subCategory: 'post-production', seconds: 30, proSelectsMusic: true });
    expect(validateCreateProject(buildBody(form))).toEqual([]);

    form.postProduction.music = 'library';
    form.postProduction.trackId = 20;
    form.postProduction.ownMusicFile = 'https://example.com/own.mp3';
    expect((buildBody(form).services as Array<Record<string, unknown>>)[2]).toEqual({
      subCategory: 'post-production',
      seconds: 30,
      trackId: 20,
    });

    form.postProduction.music = 'own';
    form.postProduction.ownMusicFileRights = true;
    const own = (buildBody(form).services as Array<Record<string, unknown>>)[2]!;
    expect(own).toMatchObject({ ownMusicFile: 'https://example.com/own.mp3', ownMusicFileRights: true });
    expect(own).not.toHaveProperty('trackId');
    expect(validateCreateProject(buildBody(form))).toEqual([]);
  });

  it('without script writing, asks for the script the voice reads and sends it with its line breaks', () => {
    const form = audioAds();
    expect(formIssues(form)).toEqual([]);
    form.adsVoiceOver.adScript = 'Ignored while a writer is ordered';
    expect((buildBody(form).services as Array<Record<string, unknown>>)[1]).not.toHaveProperty('script');

    form.withScriptwriting = false;
    form.adsVoiceOver.adScript = '  ';
    expect(formIssues(form)).toEqual([
      {
        path: 'services[0].script',
        message: 'Script is required without script writing: write what the voice reads.',
      },
    ]);
    expect(
      fieldNames(
        form,
        formIssues(form).map((i) => i.path),
      ),
    ).toEqual(['Script (Voice over)']);
    form.adsVoiceOver.adScript = 'Spring sale.\nEverything must go. ';
    expect(formIssues(form)).toEqual([]);
    const voice = (buildBody(form).services as Array<Record<string, unknown>>)[0]!;
    expect(voice).toMatchObject({ subCategory: 'voice_over', script: 'Spring sale.\nEverything must go.' });
    expect(validateCreateProject(buildBody(form))).toEqual([]);
    // The sandbox's word limit applies to this script as to a voice over's (on the sandbox only: live states none).
    form.adsVoiceOver.adScript = 'x '.repeat(20_000);
    expect(validateCreateProject(buildBody(form), { accountKind: 'sandbox' }).map((i) => i.path)).toContain(
      'services[0].script',
    );
    expect(validateCreateProject(buildBody(form), { accountKind: 'service' })).toEqual([]);
  });

  it('leaves script writing out when unticked and the quote body carries no title', () => {
    const form = audioAds();
    form.withScriptwriting = false;
    const quote = buildQuoteBody(form);
    expect(Object.keys(quote).sort()).toEqual(['fulfillmentType', 'mainService', 'services']);
    expect((quote.services as Array<Record<string, unknown>>).map((s) => s.subCategory)).toEqual([
      'voice_over',
      'post-production',
    ]);
    expect(validateQuote(quote)).toEqual([]);
  });
});

describe('field errors', () => {
  it('names the fields the quote still needs, once each, the section said where there are several', () => {
    const empty = emptyForm();
    const paths = validateQuote(buildQuoteBody(empty)).map((issue) => issue.path);
    expect(fieldNames(empty, paths)).toEqual(['Gender and age', 'Script']);
    const form = audioAds();
    form.adsVoiceOver.language = '';
    form.postProduction.music = 'library';
    const issues = [...validateQuote(buildQuoteBody(form)), ...formIssues(form)];
    expect(
      fieldNames(
        form,
        issues.map((issue) => issue.path),
      ),
    ).toEqual(['Language (Voice over)', 'Music library track (Post production)']);
    expect(fieldNames(form, ['title', 'title', 'services[0].nothing'])).toEqual(['Title']);
  });

  it('puts validator issues under the field they concern, by section', () => {
    const form = audioAds();
    form.title = 'x'.repeat(101);
    form.adsVoiceOver.language = '';
    const errors = errorsByPath(validateCreateProject(buildBody(form)));
    expect(errorAt(errors, 'title')).not.toBe('');
    expect(errorAt(errors, sectionPath(form, 'adsVoiceOver', 'language'))).not.toBe('');
    expect(errorAt(errors, sectionPath(form, 'scriptwriting', 'language'))).toBe('');
  });

  it('finds nested issues from a parent path', () => {
    expect(errorAt({ 'services[0].script[1].part002': 'Text please' }, 'services[0].script')).toBe(
      'Text please',
    );
    expect(errorAt({ 'services[10].script': 'x' }, 'services[1].script')).toBe('');
  });

  it('asks for a track and for the rights confirmation', () => {
    const form = audioAds();
    form.postProduction.music = 'library';
    expect(formIssues(form)).toEqual([{ path: 'services[2].trackId', message: 'Pick a track.' }]);
    form.postProduction.music = 'own';
    expect(formIssues(form)[0]!.path).toBe('services[2].ownMusicFileRights');
  });

  it('maps a service 422 without issues onto the field its code names, in the words of its label', () => {
    const form = audioAds();
    expect(
      serviceErrorPaths(form, { type: 'TITLE_TOO_LONG', message: 'title must be at most 100 characters.' }),
    ).toEqual({ title: 'Title must be at most 100 characters.' });
    expect(
      serviceErrorPaths(form, { type: 'GENDER_AND_AGE_NOT_ACTIVE', message: 'genderAndAge is not active.' }),
    ).toEqual({ 'services[1].genderAndAge': 'This gender and age is not available; pick another.' });
    expect(serviceErrorPaths(form, { type: 'LANGUAGE_REQUIRED', message: 'language is required.' })).toEqual({
      'services[0].language': 'Language is required.',
    });
    expect(
      serviceErrorPaths(form, {
        type: 'VALIDATION_ERROR',
        message: 'bad',
        issues: [
          { path: 'services[2].seconds', code: 'SECONDS_WRONG_TYPE', message: 'seconds must be above 0.' },
        ],
      }),
    ).toEqual({ 'services[2].seconds': 'Length (seconds) must be above 0.' });
    expect(serviceErrorPaths(form, { type: 'PROJECT_NOT_CREATED', message: 'x' })).toEqual({});
  });
});

describe('plain words', () => {
  // [case, issue, field at its path, message shown]
  const cases: Array<
    [string, Parameters<typeof plainMessage>[0], Parameters<typeof plainMessage>[1], string]
  > = [
    [
      'a required field names its label',
      {
        path: 'services[0].genderAndAge',
        code: 'GENDER_AND_AGE_REQUIRED',
        message: 'genderAndAge is required.',
      },
      { name: 'genderAndAge', label: 'Gender and age' },
      'Gender and age is required.',
    ],
    [
      'an empty script is a missing one',
      { path: 'services[0].script', code: 'SCRIPT_EMPTY', message: 'script must contain text.' },
      { name: 'script', label: 'Script' },
      'Script is required.',
    ],
    [
      'an inactive choice asks for another',
      { path: 'services[0].language', code: 'LANGUAGE_NOT_ACTIVE', message: 'language is not active (xx).' },
      { name: 'language', label: 'Language' },
      'This language is not available; pick another.',
    ],
    [
      'a leading API name becomes the label, the rest is kept',
      { path: 'services[0].seconds', code: 'SECONDS_WRONG_TYPE', message: 'seconds must be at most 3600.' },
      { name: 'seconds', label: 'Length (seconds)' },
      'Length (seconds) must be at most 3600.',
    ],
    [
      'a nested API name counts for its field',
      {
        path: 'services[0].tone.conciseWordy',
        code: 'TONE_WRONG_TYPE',
        message: 'tone.conciseWordy must be a number.',
      },
      { name: 'tone', label: 'Tone' },
      'Tone must be a number.',
    ],
    [
      'a bad link says what a good one looks like',
      { path: 'services[0].assetsFiles[0]', code: 'INVALID_URL', message: 'Not a URL.' },
      { name: 'assetsFiles', label: 'Attachments' },
      'Attachments: enter a full link starting with https://.',
    ],
    [
      "the form's own plain messages stay as they are",
      { path: 'services[2].trackId', message: 'Pick a track.' },
      { name: 'trackId', label: 'Music library track' },
      'Pick a track.',
    ],
    [
      'a first word that is not the field stays',
      { path: 'title', code: 'TITLE_TOO_LONG', message: 'too long' },
      { name: 'title', label: 'Title' },
      'too long',
    ],
    ['no known field: the message as sent', { path: '', message: 'Body broken.' }, undefined, 'Body broken.'],
  ];
  it.each(cases)('%s', (_name, issue, field, shown) => {
    expect(plainMessage(issue, field)).toBe(shown);
  });

  it('no message the validator gives an empty form names an API field', () => {
    for (const form of [voiceOver(), audioAds()]) {
      form.title = '';
      if (form.mainService === 'voice_over')
        Object.assign(form.voiceOver, { genderAndAge: '', language: '', script: [] });
      else Object.assign(form.adsVoiceOver, { genderAndAge: '', language: '' });
      const errors = fieldErrors(form, validateCreateProject(buildBody(form)));
      expect(Object.keys(errors).length).toBeGreaterThan(1);
      for (const message of Object.values(errors)) {
        expect(message).not.toMatch(/\b(genderAndAge|mainService|subCategory|title|language|script)\b/);
      }
      expect(errors.title).toBe('Title is required.');
    }
  });

  it('counts fields, not paths', () => {
    expect(
      fieldCount({
        title: 'a',
        'services[0].script[0].part001': 'b',
        'services[0].script[1].part002': 'c',
        'services[1].tone.conciseWordy': 'd',
      }),
    ).toBe(3);
  });
});

describe('order with this voice', () => {
  const order = {
    category: 'voice_over' as const,
    language: 'eng-gb',
    genderAndAge: 'middleAgeMale',
    pro: 'Ada Lovelace',
    sampleId: 's-42',
  };

  it('prefills a booking with the voice and the pro named in the remarks', () => {
    const form = emptyForm();
    prefillFromSample(form, order);
    expect(form.fulfillmentType).toBe('booking');
    expect(form.voiceOver).toMatchObject({ language: 'eng-gb', genderAndAge: 'middleAgeMale' });
    expect(form.remarks).toContain('Ada Lovelace');
    const body = buildBody(form);
    expect(body.remarks).toContain('Ada Lovelace');
    expect((body.services as Array<Record<string, unknown>>)[0]).toMatchObject({
      genderAndAge: 'middleAgeMale',
    });
  });

  it('fills the voice of an audio ad', () => {
    const form = emptyForm();
    prefillFromSample(form, { ...order, category: 'audio_ads' });
    expect(form.mainService).toBe('audio_ads');
    expect(form.adsVoiceOver).toMatchObject({ language: 'eng-gb', genderAndAge: 'middleAgeMale' });
    expect(form.voiceOver.genderAndAge).toBe('');
  });

  it('round-trips through the route query and refuses a partial one', () => {
    expect(sampleOrderFromQuery(sampleOrderQuery(order))).toEqual(order);
    expect(sampleOrderFromQuery({ ...sampleOrderQuery(order), pro: '' })).toBeNull();
    expect(sampleOrderFromQuery({ ...sampleOrderQuery(order), category: 'podcast' })).toBeNull();
    expect(sampleOrderFromQuery({ ...sampleOrderQuery(order), voice: ['a', 'b'] })).toBeNull();
    expect(sampleOrderFromQuery({})).toBeNull();
  });

  it('carries the sample’s booking price and currency, when there is one (issue 26 item 6)', () => {
    const priced = { ...order, bookingPrice: { value: 27.1, currency: 'EUR' } };
    expect(sampleOrderFromQuery(sampleOrderQuery(priced))).toEqual(priced);
    expect(sampleOrderFromQuery({ ...sampleOrderQuery(priced), currency: 'euros' })).toEqual(order);
    expect(sampleOrderFromQuery({ ...sampleOrderQuery(priced), price: 'free' })).toEqual(order);
  });
});

describe('defaults the service applies', () => {
  it('are left out of the body until the producer picks one (the live default has another name)', () => {
    const vo = voiceOver();
    vo.voiceOver.purpose = emptyForm().voiceOver.purpose;
    const voService = (buildBody(vo).services as Array<Record<string, unknown>>)[0]!;
    expect(voService).not.toHaveProperty('purpose');

    const ads = buildBody(audioAds()).services as Array<Record<string, unknown>>;
    expect(ads[0]).not.toHaveProperty('voicePerspective');
    expect(ads[1]).not.toHaveProperty('purpose');

    const chosen = audioAds();
    chosen.scriptwriting.voicePerspective = 'first-person';
    chosen.adsVoiceOver.purpose = 'radioTvAds';
    const sent = buildBody(chosen).services as Array<Record<string, unknown>>;
    expect(sent[0]!.voicePerspective).toBe('first-person');
    expect(sent[1]!.purpose).toBe('radioTvAds');
  });
});
