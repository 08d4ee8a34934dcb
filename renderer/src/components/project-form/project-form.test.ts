import { describe, expect, it } from 'vitest';
import { validateCreateProject, validateQuote } from '../../../../shared/api/validate-project';
import {
  buildBody,
  buildQuoteBody,
  emptyForm,
  errorAt,
  errorsByPath,
  formIssues,
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

  it('maps a service 422 without issues onto the field its code names', () => {
    const form = audioAds();
    expect(serviceErrorPaths(form, { type: 'TITLE_TOO_LONG', message: 'too long' })).toEqual({
      title: 'too long',
    });
    expect(serviceErrorPaths(form, { type: 'GENDER_AND_AGE_NOT_ACTIVE', message: 'inactive' })).toEqual({
      'services[1].genderAndAge': 'inactive',
    });
    expect(serviceErrorPaths(form, { type: 'LANGUAGE_NOT_ACTIVE', message: 'no' })).toEqual({
      'services[0].language': 'no',
    });
    expect(
      serviceErrorPaths(form, {
        type: 'VALIDATION_ERROR',
        message: 'bad',
        issues: [{ path: 'services[2].seconds', code: 'SECONDS_REQUIRED', message: 'Seconds please' }],
      }),
    ).toEqual({ 'services[2].seconds': 'Seconds please' });
    expect(serviceErrorPaths(form, { type: 'PROJECT_NOT_CREATED', message: 'x' })).toEqual({});
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
