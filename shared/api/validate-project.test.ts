import { describe, expect, it } from 'vitest';
import { SPEC_ERROR_CODES, isErrorCode, type ErrorCode } from './errors';
import {
  CREATE_PROJECT_ISSUE_CODES,
  PROJECT_LIMITS,
  countUnits,
  normalizeScript,
  scriptParts,
  scriptUnits,
  validateApproveAllBody,
  validateCancelBody,
  validateCreateProject,
  validateDeliverableStatusBody,
  validateQuote,
  validateRejectBody,
  validateRevisionBody,
  type ValidateOptions,
} from './validate-project';

type Body = Record<string, unknown>;

const VOICE_OVER: Body = {
  title: 'Bakery spot',
  mainService: 'voice_over',
  fulfillmentType: 'speedy',
  fake: false,
  test: true,
  remarks: '',
  services: [
    {
      subCategory: 'voice_over',
      language: 'eng-us',
      genderAndAge: 'teenageGirl',
      purpose: 'radioTvAds',
      script: [{ part001: 'Fresh bread, every morning.' }, { part002: 'Come by.' }],
    },
  ],
};

const AUDIO_ADS: Body = {
  title: 'Bakery ad',
  mainService: 'audio_ads',
  fulfillmentType: 'contest',
  remarks: 'Warm',
  services: [
    {
      subCategory: 'scriptwriting',
      seconds: 30,
      language: 'eng-us',
      voicePerspective: 'service-pro-choice',
      topic: 'Opening day',
      purpose: 'Bring people in',
      targetAudience: 'Neighbours',
      keywords: 'bread, fresh',
      remarks: 'Mention the date',
      tone: {
        seriousHumorous: -2,
        conciseWordy: 1,
        objectiveOpinionated: 0,
        sincereSarcastic: -3,
        journalisticCreative: 2,
      },
      assetsFiles: ['https://files.example/logo.png'],
    },
    {
      subCategory: 'voice_over',
      language: 'eng-us',
      genderAndAge: 'middleAgeMale',
      purpose: 'radioTvAds',
      remarks: 'Smile',
      assetsFiles: ['http://files.example/ref.mp3'],
    },
    {
      subCategory: 'post-production',
      seconds: 30,
      remarks: 'Upbeat',
      ownMusicFile: 'https://files.example/music.mp3',
      ownMusicFileRights: true,
      proSelectsMusic: false,
      assetsFiles: [],
    },
  ],
};

/** A copy of the body with top-level fields replaced. */
function top(base: Body, patch: Body): Body {
  return { ...structuredClone(base), ...patch };
}
/** A copy of the body with fields of service i replaced. */
function svc(base: Body, i: number, patch: Body): Body {
  const copy = structuredClone(base);
  const services = copy.services as Body[];
  services[i] = { ...services[i], ...patch };
  return copy;
}
const vo = (patch: Body) => top(VOICE_OVER, patch);
const voS = (patch: Body) => svc(VOICE_OVER, 0, patch);
const sw = (patch: Body) => svc(AUDIO_ADS, 0, patch);
const aaVo = (patch: Body) => svc(AUDIO_ADS, 1, patch);
const pp = (patch: Body) => svc(AUDIO_ADS, 2, patch);

const ACTIVE: ValidateOptions = {
  activeLanguages: new Set(['eng-us', 'spa-mx']),
  activeGenderAndAges: new Set(['teenageGirl', 'middleAgeMale']),
};

type Row = [name: string, body: unknown, expected: Array<[ErrorCode, string]>, options?: ValidateOptions];

const S0 = 'services[0]';
const S1 = 'services[1]';
const S2 = 'services[2]';

const ROWS: Row[] = [
  // body
  ['body is an array', [VOICE_OVER], [['BODY_WRONG_TYPE', '']]],
  ['body is null', null, [['BODY_WRONG_TYPE', '']]],
  ['body is a string', 'title', [['BODY_WRONG_TYPE', '']]],
  // title
  ['title missing', vo({ title: undefined }), [['TITLE_REQUIRED', 'title']]],
  ['title null', vo({ title: null }), [['TITLE_REQUIRED', 'title']]],
  ['title blank', vo({ title: '   ' }), [['TITLE_REQUIRED', 'title']]],
  ['title number', vo({ title: 12 }), [['TITLE_WRONG_TYPE', 'title']]],
  ['title 101 characters', vo({ title: 'a'.repeat(101) }), [['TITLE_TOO_LONG', 'title']]],
  ['title 101 emoji', vo({ title: '😀'.repeat(101) }), [['TITLE_TOO_LONG', 'title']]],
  // mainService
  ['mainService missing', vo({ mainService: undefined }), [['MAINSERVICE_REQUIRED', 'mainService']]],
  ['mainService number', vo({ mainService: 1 }), [['MAINSERVICE_WRONG_TYPE', 'mainService']]],
  ['mainService unknown', vo({ mainService: 'podcast' }), [['MAINSERVICE_NOT_AUTHORIZED', 'mainService']]],
  [
    'mainService not enabled for the account',
    vo({}),
    [['MAINSERVICE_NOT_AUTHORIZED', 'mainService']],
    { authorizedMainServices: new Set(['audio_ads']) },
  ],
  // fulfillmentType, flags, remarks
  [
    'fulfillmentType number',
    vo({ fulfillmentType: 2 }),
    [['FULFILLMENT_TYPE_WRONG_TYPE', 'fulfillmentType']],
  ],
  [
    'fulfillmentType unknown',
    vo({ fulfillmentType: 'express' }),
    [['FULFILLMENT_TYPE_NOT_ALLOWED', 'fulfillmentType']],
  ],
  ['fake string', vo({ fake: 'false' }), [['FAKE_WRONG_TYPE', 'fake']]],
  ['test number', vo({ test: 1 }), [['TEST_WRONG_TYPE', 'test']]],
  ['remarks number', vo({ remarks: 5 }), [['REMARKS_WRONG_TYPE', 'remarks']]],
  [
    'remarks missing when required',
    vo({ remarks: undefined }),
    [['REMARKS_REQUIRED', 'remarks']],
    { requireRemarks: true },
  ],
  // services
  ['services missing', vo({ services: undefined }), [['SERVICES_REQUIRED', 'services']]],
  ['services object', vo({ services: {} }), [['SERVICES_WRONG_TYPE', 'services']]],
  ['services empty (voice over)', vo({ services: [] }), [['SERVICE_MISSING', 'services']]],
  ['service not an object', vo({ services: ['voice_over'] }), [['SERVICE_WRONG_TYPE', S0]]],
  ['subCategory missing', voS({ subCategory: undefined }), [['SUBCATEGORY_REQUIRED', `${S0}.subCategory`]]],
  ['subCategory number', voS({ subCategory: 3 }), [['SUBCATEGORY_WRONG_TYPE', `${S0}.subCategory`]]],
  [
    'subCategory unknown',
    voS({ subCategory: 'music' }),
    [['SUBCATEGORY_NOT_AUTHORIZED', `${S0}.subCategory`]],
  ],
  [
    'subCategory not enabled for the account',
    VOICE_OVER,
    [['SUBCATEGORY_NOT_AUTHORIZED', `${S0}.subCategory`]],
    { authorizedSubCategories: new Set(['scriptwriting']) },
  ],
  [
    'scriptwriting in a voice over project',
    vo({ services: [...(VOICE_OVER.services as Body[]), (AUDIO_ADS.services as Body[])[0]] }),
    [['SERVICE_NOT_ALLOWED', `${S1}.subCategory`]],
  ],
  [
    'two voice overs in a voice over project',
    vo({ services: [...(VOICE_OVER.services as Body[]), ...(VOICE_OVER.services as Body[])] }),
    [['SERVICE_NOT_ALLOWED', `${S1}.subCategory`]],
  ],
  [
    'audio ads without post production',
    top(AUDIO_ADS, { services: (AUDIO_ADS.services as Body[]).slice(0, 2) }),
    [['SERVICE_MISSING', 'services']],
  ],
  [
    'audio ads with only script writing',
    top(AUDIO_ADS, { services: (AUDIO_ADS.services as Body[]).slice(0, 1) }),
    [
      ['SERVICE_MISSING', 'services'],
      ['SERVICE_MISSING', 'services'],
    ],
  ],
  // voice over service (voice over project)
  ['language missing', voS({ language: undefined }), [['LANGUAGE_REQUIRED', `${S0}.language`]]],
  ['language number', voS({ language: 7 }), [['LANGUAGE_WRONG_TYPE', `${S0}.language`]]],
  ['language not active', voS({ language: 'fra-fr' }), [['LANGUAGE_NOT_ACTIVE', `${S0}.language`]], ACTIVE],
  [
    'genderAndAge missing',
    voS({ genderAndAge: undefined }),
    [['GENDER_AND_AGE_REQUIRED', `${S0}.genderAndAge`]],
  ],
  ['genderAndAge array', voS({ genderAndAge: ['x'] }), [['GENDER_AND_AGE_WRONG_TYPE', `${S0}.genderAndAge`]]],
  [
    'genderAndAge not active',
    voS({ genderAndAge: 'baby' }),
    [['GENDER_AND_AGE_NOT_ACTIVE', `${S0}.genderAndAge`]],
    ACTIVE,
  ],
  ['purpose number', voS({ purpose: 1 }), [['PURPOSE_WRONG_TYPE', `${S0}.purpose`]]],
  ['script missing', voS({ script: undefined }), [['SCRIPT_REQUIRED', `${S0}.script`]]],
  ['script number', voS({ script: 42 }), [['SCRIPT_WRONG_TYPE', `${S0}.script`]]],
  ['script part a string', voS({ script: ['hello'] }), [['SCRIPT_WRONG_TYPE', `${S0}.script[0]`]]],
  [
    'script part value a number',
    voS({ script: [{ part001: 'a' }, { part002: 2 }] }),
    [['SCRIPT_WRONG_TYPE', `${S0}.script[1].part002`]],
  ],
  ['script blank string', voS({ script: '  ' }), [['SCRIPT_EMPTY', `${S0}.script`]]],
  ['script empty array', voS({ script: [] }), [['SCRIPT_EMPTY', `${S0}.script`]]],
  ['script parts all blank', voS({ script: [{ part001: '' }, {}] }), [['SCRIPT_EMPTY', `${S0}.script`]]],
  // script writing
  ['seconds missing', sw({ seconds: undefined }), [['SECONDS_REQUIRED', `${S0}.seconds`]]],
  ['seconds string', sw({ seconds: '30' }), [['SECONDS_WRONG_TYPE', `${S0}.seconds`]]],
  ['seconds zero', sw({ seconds: 0 }), [['SECONDS_WRONG_TYPE', `${S0}.seconds`]]],
  ['scriptwriting language missing', sw({ language: undefined }), [['LANGUAGE_REQUIRED', `${S0}.language`]]],
  [
    'scriptwriting language not active',
    sw({ language: 'deu-de' }),
    [['LANGUAGE_NOT_ACTIVE', `${S0}.language`]],
    ACTIVE,
  ],
  [
    'voicePerspective number',
    sw({ voicePerspective: 1 }),
    [['VOICE_PERSPECTIVE_WRONG_TYPE', `${S0}.voicePerspective`]],
  ],
  ['topic missing', sw({ topic: undefined }), [['TOPIC_REQUIRED', `${S0}.topic`]]],
  ['topic number', sw({ topic: 1 }), [['TOPIC_WRONG_TYPE', `${S0}.topic`]]],
  ['scriptwriting purpose missing', sw({ purpose: undefined }), [['PURPOSE_REQUIRED', `${S0}.purpose`]]],
  ['scriptwriting purpose object', sw({ purpose: {} }), [['PURPOSE_WRONG_TYPE', `${S0}.purpose`]]],
  [
    'targetAudience missing',
    sw({ targetAudience: '' }),
    [['TARGET_AUDIENCE_REQUIRED', `${S0}.targetAudience`]],
  ],
  [
    'targetAudience number',
    sw({ targetAudience: 9 }),
    [['TARGET_AUDIENCE_WRONG_TYPE', `${S0}.targetAudience`]],
  ],
  ['keywords array', sw({ keywords: ['a'] }), [['KEYWORDS_WRONG_TYPE', `${S0}.keywords`]]],
  ['scriptwriting remarks number', sw({ remarks: 1 }), [['REMARKS_WRONG_TYPE', `${S0}.remarks`]]],
  ['tone string', sw({ tone: 'funny' }), [['TONE_WRONG_TYPE', `${S0}.tone`]]],
  [
    'tone value string',
    sw({ tone: { conciseWordy: 'x' } }),
    [['TONE_WRONG_TYPE', `${S0}.tone.conciseWordy`]],
  ],
  ['tone unknown key', sw({ tone: { loudQuiet: 1 } }), [['TONE_WRONG_TYPE', `${S0}.tone.loudQuiet`]]],
  [
    'assetsFiles string',
    sw({ assetsFiles: 'https://x.example/a' }),
    [['ASSETS_FILES_WRONG_TYPE', `${S0}.assetsFiles`]],
  ],
  [
    'assetsFiles item number',
    sw({ assetsFiles: ['https://x.example/a', 5] }),
    [['ASSETS_FILES_WRONG_TYPE', `${S0}.assetsFiles[1]`]],
  ],
  [
    'assetsFiles item not a URL',
    sw({ assetsFiles: ['logo.png'] }),
    [['INVALID_URL', `${S0}.assetsFiles[0]`]],
  ],
  [
    'assetsFiles item ftp URL',
    sw({ assetsFiles: ['ftp://x.example/a'] }),
    [['INVALID_URL', `${S0}.assetsFiles[0]`]],
  ],
  // voice over inside audio ads
  [
    'audio ads voice over language missing',
    aaVo({ language: undefined }),
    [['LANGUAGE_REQUIRED', `${S1}.language`]],
  ],
  [
    'audio ads voice over genderAndAge missing',
    aaVo({ genderAndAge: undefined }),
    [['GENDER_AND_AGE_REQUIRED', `${S1}.genderAndAge`]],
  ],
  [
    'audio ads voice over genderAndAge not active',
    aaVo({ genderAndAge: 'baby' }),
    [['GENDER_AND_AGE_NOT_ACTIVE', `${S1}.genderAndAge`]],
    ACTIVE,
  ],
  ['audio ads voice over purpose number', aaVo({ purpose: 2 }), [['PURPOSE_WRONG_TYPE', `${S1}.purpose`]]],
  ['audio ads voice over remarks number', aaVo({ remarks: 2 }), [['REMARKS_WRONG_TYPE', `${S1}.remarks`]]],
  [
    'audio ads voice over assetsFiles bad URL',
    aaVo({ assetsFiles: ['nope'] }),
    [['INVALID_URL', `${S1}.assetsFiles[0]`]],
  ],
  ['audio ads voice over needs no script', aaVo({ script: undefined }), []],
  // post production
  ['post production seconds missing', pp({ seconds: undefined }), [['SECONDS_REQUIRED', `${S2}.seconds`]]],
  ['post production seconds negative', pp({ seconds: -5 }), [['SECONDS_WRONG_TYPE', `${S2}.seconds`]]],
  ['post production remarks number', pp({ remarks: 1 }), [['REMARKS_WRONG_TYPE', `${S2}.remarks`]]],
  [
    'trackId string',
    pp({ ownMusicFile: undefined, ownMusicFileRights: undefined, trackId: '20' }),
    [['TRACK_ID_WRONG_TYPE', `${S2}.trackId`]],
  ],
  [
    'trackId fraction',
    pp({ ownMusicFile: undefined, ownMusicFileRights: undefined, trackId: 2.5 }),
    [['TRACK_ID_WRONG_TYPE', `${S2}.trackId`]],
  ],
  ['ownMusicFile number', pp({ ownMusicFile: 3 }), [['OWN_MUSIC_FILE_WRONG_TYPE', `${S2}.ownMusicFile`]]],
  ['ownMusicFile not a URL', pp({ ownMusicFile: 'music.mp3' }), [['INVALID_URL', `${S2}.ownMusicFile`]]],
  ['trackId and ownMusicFile', pp({ trackId: 20 }), [['TRACK_ID_AND_OWN_MUSIC_FILE', `${S2}.ownMusicFile`]]],
  [
    'ownMusicFileRights missing',
    pp({ ownMusicFileRights: undefined }),
    [['OWN_MUSIC_FILE_RIGHTS_REQUIRED', `${S2}.ownMusicFileRights`]],
  ],
  [
    'ownMusicFileRights string',
    pp({ ownMusicFileRights: 'yes' }),
    [['OWN_MUSIC_FILE_RIGHTS_WRONG_TYPE', `${S2}.ownMusicFileRights`]],
  ],
  [
    'proSelectsMusic string',
    pp({ proSelectsMusic: 'true' }),
    [['PRO_SELECTS_MUSIC_WRONG_TYPE', `${S2}.proSelectsMusic`]],
  ],
  [
    'post production assetsFiles object',
    pp({ assetsFiles: {} }),
    [['ASSETS_FILES_WRONG_TYPE', `${S2}.assetsFiles`]],
  ],
];

function run(body: unknown, options?: ValidateOptions): Array<[ErrorCode, string]> {
  return validateCreateProject(body, options).map((issue) => [issue.code, issue.path]);
}

describe('validateCreateProject', () => {
  it('accepts a valid voice over body and a valid audio ads body', () => {
    expect(validateCreateProject(VOICE_OVER)).toEqual([]);
    expect(validateCreateProject(AUDIO_ADS)).toEqual([]);
    expect(validateCreateProject(VOICE_OVER, ACTIVE)).toEqual([]);
    expect(validateCreateProject(AUDIO_ADS, ACTIVE)).toEqual([]);
  });

  it('accepts the minimal bodies (defaults left out, script as a string, audio ads without script writing)', () => {
    const minimal = {
      title: 'x',
      mainService: 'voice_over',
      services: [
        { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'teenageGirl', script: 'Hi' },
      ],
    };
    expect(validateCreateProject(minimal)).toEqual([]);
    expect(
      validateCreateProject(top(AUDIO_ADS, { services: (AUDIO_ADS.services as Body[]).slice(1) })),
    ).toEqual([]);
    expect(
      validateCreateProject(pp({ ownMusicFile: undefined, ownMusicFileRights: undefined, trackId: 20 })),
    ).toEqual([]);
  });

  it.each(ROWS)('%s', (_name, body, expected, options) => {
    expect(run(body, options)).toEqual(expected);
  });

  it('produces every code it claims, and only those', () => {
    const produced = new Set(ROWS.flatMap(([, body, , options]) => run(body, options).map(([code]) => code)));
    expect([...produced].sort()).toEqual([...CREATE_PROJECT_ISSUE_CODES].sort());
    for (const code of CREATE_PROJECT_ISSUE_CODES) expect(isErrorCode(code)).toBe(true);
  });

  it('covers all the spec creation codes except the server-side PROJECT_NOT_CREATED', () => {
    const creation = SPEC_ERROR_CODES.slice(0, SPEC_ERROR_CODES.indexOf('SCRIPT_WRONG_TYPE') + 1);
    expect(creation.filter((code) => !CREATE_PROJECT_ISSUE_CODES.includes(code))).toEqual([
      'PROJECT_NOT_CREATED',
    ]);
  });

  it('counts title length in code points: 100 emoji pass, 101 characters fail', () => {
    const hundredEmoji = '😀'.repeat(100);
    expect(hundredEmoji.length).toBe(200);
    expect(run(vo({ title: hundredEmoji }))).toEqual([]);
    expect(run(vo({ title: 'a'.repeat(100) }))).toEqual([]);
    expect(run(vo({ title: '😀'.repeat(101) }))).toEqual([['TITLE_TOO_LONG', 'title']]);
  });

  it('checks NOT_ACTIVE only when the active sets are given', () => {
    const body = voS({ language: 'klingon', genderAndAge: 'robot' });
    expect(run(body)).toEqual([]);
    expect(run(body, ACTIVE)).toEqual([
      ['LANGUAGE_NOT_ACTIVE', `${S0}.language`],
      ['GENDER_AND_AGE_NOT_ACTIVE', `${S0}.genderAndAge`],
    ]);
  });

  it('lets remarks be optional unless required, and accepts "" as present', () => {
    expect(run(vo({ remarks: undefined }))).toEqual([]);
    expect(run(vo({ remarks: '' }), { requireRemarks: true })).toEqual([]);
  });

  const MESSY: Body = {
    services: [
      { subCategory: 'scriptwriting', tone: { conciseWordy: 'x' }, seconds: 'long' },
      { language: 1, subCategory: 'voice_over' },
      7,
      { subCategory: 'post-production', seconds: 10, trackId: 1, ownMusicFile: 'https://m.example/a.mp3' },
    ],
    test: 'no',
    fake: 'yes',
    fulfillmentType: 'fast',
    mainService: 'audio_ads',
    title: '',
  };
  const MESSY_EXPECTED: Array<[ErrorCode, string]> = [
    ['TITLE_REQUIRED', 'title'],
    ['FULFILLMENT_TYPE_NOT_ALLOWED', 'fulfillmentType'],
    ['FAKE_WRONG_TYPE', 'fake'],
    ['TEST_WRONG_TYPE', 'test'],
    ['SECONDS_WRONG_TYPE', `${S0}.seconds`],
    ['LANGUAGE_REQUIRED', `${S0}.language`],
    ['TOPIC_REQUIRED', `${S0}.topic`],
    ['PURPOSE_REQUIRED', `${S0}.purpose`],
    ['TARGET_AUDIENCE_REQUIRED', `${S0}.targetAudience`],
    ['TONE_WRONG_TYPE', `${S0}.tone.conciseWordy`],
    ['LANGUAGE_WRONG_TYPE', `${S1}.language`],
    ['GENDER_AND_AGE_REQUIRED', `${S1}.genderAndAge`],
    ['SERVICE_WRONG_TYPE', S2],
    ['TRACK_ID_AND_OWN_MUSIC_FILE', 'services[3].ownMusicFile'],
    ['OWN_MUSIC_FILE_RIGHTS_REQUIRED', 'services[3].ownMusicFileRights'],
  ];

  it('reports in spec order, whatever the key order of the body', () => {
    expect(run(MESSY)).toEqual(MESSY_EXPECTED);
    const reversed = Object.fromEntries(Object.entries(MESSY).reverse());
    expect(run(reversed)).toEqual(MESSY_EXPECTED);
    expect(run(MESSY)).toEqual(run(structuredClone(MESSY)));
  });

  it('gives every issue a message', () => {
    for (const issue of validateCreateProject(MESSY)) expect(issue.message.length).toBeGreaterThan(5);
  });
});

describe('validateQuote', () => {
  it('checks category and services but not title, flags or remarks', () => {
    const { title: _t, remarks: _r, fake: _f, test: _x, ...quote } = VOICE_OVER;
    expect(validateQuote(quote)).toEqual([]);
    expect(validateQuote({ ...quote, services: [] }).map((i) => i.code)).toEqual(['SERVICE_MISSING']);
    expect(validateQuote({ services: quote.services }).map((i) => i.code)).toEqual(['MAINSERVICE_REQUIRED']);
  });
});

describe('action body validators', () => {
  const codes = (issues: Array<{ code: ErrorCode; path: string }>) => issues.map((i) => [i.code, i.path]);

  it.each<[string, unknown, Array<[ErrorCode, string]>]>([
    [
      'valid',
      { instructions: 'Slower please', reason: 'both', revisionCode: 'pacing', checkTalent: true },
      [],
    ],
    ['instructions missing', { checkTalent: false }, [['INSTRUCTIONS_REQUIRED', 'instructions']]],
    ['instructions blank', { instructions: ' ' }, [['INSTRUCTIONS_REQUIRED', 'instructions']]],
    ['instructions number', { instructions: 3 }, [['INSTRUCTIONS_WRONG_TYPE', 'instructions']]],
    ['reason number', { instructions: 'x', reason: 1 }, [['REASON_WRONG_TYPE', 'reason']]],
    [
      'revisionCode number',
      { instructions: 'x', revisionCode: 1 },
      [['REVISION_CODE_WRONG_TYPE', 'revisionCode']],
    ],
    [
      'checkTalent string',
      { instructions: 'x', checkTalent: 'true' },
      [['CHECK_TALENT_WRONG_TYPE', 'checkTalent']],
    ],
    ['not an object', 'x', [['BODY_WRONG_TYPE', '']]],
  ])('revision: %s', (_name, body, expected) => {
    expect(codes(validateRevisionBody(body))).toEqual(expected);
  });

  it('revision: checks codes and reasons only against given lists', () => {
    const body = { instructions: 'x', reason: 'music', revisionCode: 'made_up' };
    expect(validateRevisionBody(body)).toEqual([]);
    expect(
      codes(
        validateRevisionBody(body, { allowedCodes: new Set(['pacing']), allowedReasons: new Set(['both']) }),
      ),
    ).toEqual([
      ['REASON_CODE_NOT_ALLOWED', 'reason'],
      ['REASON_CODE_NOT_ALLOWED', 'revisionCode'],
    ]);
  });

  it.each<[string, unknown, Array<[ErrorCode, string]>]>([
    ['valid', { status: 'rejected', reasonCode: 'wrong_tone', reason: 'Too flat' }, []],
    [
      'genderAndAgeChange with new value',
      { reasonCode: 'genderAndAgeChange', newGenderAndAge: 'seniorMale' },
      [],
    ],
    [
      'genderAndAgeChange without new value',
      { reasonCode: 'genderAndAgeChange' },
      [['NEW_GENDER_AND_AGE_REQUIRED', 'newGenderAndAge']],
    ],
    [
      'genderAndAgeChange as reason',
      { reason: 'genderAndAgeChange', newGenderAndAge: '' },
      [['NEW_GENDER_AND_AGE_REQUIRED', 'newGenderAndAge']],
    ],
    [
      'newGenderAndAge number',
      { newGenderAndAge: 3 },
      [['NEW_GENDER_AND_AGE_WRONG_TYPE', 'newGenderAndAge']],
    ],
    ['reason number', { reason: 3 }, [['REASON_WRONG_TYPE', 'reason']]],
    ['reasonCode number', { reasonCode: 3 }, [['REASON_CODE_WRONG_TYPE', 'reasonCode']]],
  ])('reject: %s', (_name, body, expected) => {
    expect(codes(validateRejectBody(body))).toEqual(expected);
  });

  it('reject: checks codes and new gender and age against given lists', () => {
    const body = { reasonCode: 'genderAndAgeChange', newGenderAndAge: 'robot' };
    expect(
      codes(
        validateRejectBody(body, {
          allowedCodes: new Set(['wrong_tone']),
          activeGenderAndAges: new Set(['seniorMale']),
        }),
      ),
    ).toEqual([
      ['REASON_CODE_NOT_ALLOWED', 'reasonCode'],
      ['GENDER_AND_AGE_NOT_ACTIVE', 'newGenderAndAge'],
    ]);
  });

  it('deliverable status: dispatches on status', () => {
    expect(validateDeliverableStatusBody({ status: 'approved' })).toEqual([]);
    expect(validateDeliverableStatusBody({ status: 'winner' })).toEqual([]);
    expect(codes(validateDeliverableStatusBody({ status: 'approve' }))).toEqual([
      ['STATUS_NOT_ALLOWED', 'status'],
    ]);
    expect(codes(validateDeliverableStatusBody({}))).toEqual([['STATUS_NOT_ALLOWED', 'status']]);
    expect(
      codes(validateDeliverableStatusBody({ status: 'rejected', reasonCode: 'genderAndAgeChange' })),
    ).toEqual([['NEW_GENDER_AND_AGE_REQUIRED', 'newGenderAndAge']]);
    expect(codes(validateDeliverableStatusBody(null))).toEqual([['BODY_WRONG_TYPE', '']]);
  });

  it('approve all: accepts approved and approve', () => {
    expect(validateApproveAllBody({ status: 'approved' })).toEqual([]);
    expect(validateApproveAllBody({ status: 'approve' })).toEqual([]);
    expect(codes(validateApproveAllBody({ status: 'rejected' }))).toEqual([['STATUS_NOT_ALLOWED', 'status']]);
    expect(codes(validateApproveAllBody([]))).toEqual([['BODY_WRONG_TYPE', '']]);
  });

  it('cancel: needs status canceled and a documented reason code', () => {
    expect(
      validateCancelBody({ status: 'canceled', reason: 'dup', reasonCode: 'no_longer_needed.duplicated' }),
    ).toEqual([]);
    expect(validateCancelBody({ status: 'canceled', reasonCode: 'late_delivery' })).toEqual([]);
    expect(validateCancelBody({ status: 'canceled' })).toEqual([]);
    expect(codes(validateCancelBody({ status: 'paid', reason: 4, reasonCode: 'bored' }))).toEqual([
      ['STATUS_NOT_ALLOWED', 'status'],
      ['REASON_WRONG_TYPE', 'reason'],
      ['REASON_CODE_NOT_ALLOWED', 'reasonCode'],
    ]);
    expect(codes(validateCancelBody({ status: 'canceled', reasonCode: 7 }))).toEqual([
      ['REASON_CODE_WRONG_TYPE', 'reasonCode'],
    ]);
  });
});

describe('scripts and units', () => {
  it('normalises a plain string to one part', () => {
    expect(normalizeScript('Hello')).toEqual([{ part001: 'Hello' }]);
    const parts: Array<Record<string, string>> = [{ part001: 'a' }, { part002: 'b', part003: 'c' }];
    expect(normalizeScript(parts)).toEqual(parts);
    expect(normalizeScript(parts)).not.toBe(parts);
  });

  it('lists every key and text in order', () => {
    expect(scriptParts([{ part001: 'a' }, { part002: 'b', part003: 'c' }])).toEqual([
      { key: 'part001', text: 'a' },
      { key: 'part002', text: 'b' },
      { key: 'part003', text: 'c' },
    ]);
    expect(scriptParts('one')).toEqual([{ key: 'part001', text: 'one' }]);
  });

  it.each<[string, string, number, 'words' | 'characters']>([
    ['Fresh bread, every morning.', 'eng-us', 4, 'words'],
    ['  spaced\tout\nwords  ', 'spa-mx', 3, 'words'],
    ['', 'eng-us', 0, 'words'],
    ['こんにちは 世界', 'jpn-jp', 7, 'characters'],
    ['你好，世界', 'cmn-zh', 5, 'characters'],
    ['早晨', 'yue-zh', 2, 'characters'],
    ['안녕 하세요', 'kor-ko', 5, 'characters'],
    ['สวัสดี', 'tha-th', 6, 'characters'],
    ['𠀀𠀁', 'zh', 2, 'characters'],
    ['テスト', 'JA', 3, 'characters'],
  ])('counts %j in %s as %i %s', (text, language, units, unitType) => {
    expect(countUnits(text, language)).toEqual({ units, unitType });
  });

  it('sums the units of a whole script', () => {
    expect(scriptUnits([{ part001: 'one two' }, { part002: 'three' }], 'eng-us')).toEqual({
      units: 3,
      unitType: 'words',
    });
    expect(scriptUnits('日本 語', 'jpn-jp')).toEqual({ units: 3, unitType: 'characters' });
  });
});

// Issue 13 items 1 and 6: every bound delivery needs is refused at creation, with one issue per bound.
describe('sandbox limits (PROJECT_LIMITS)', () => {
  const SANDBOX = { accountKind: 'sandbox' } as const;
  const codes = (body: unknown) => validateCreateProject(body, SANDBOX).map((i) => [i.code, i.path]);

  it('takes seconds up to 3600 and refuses 3601 with SECONDS_WRONG_TYPE (script writing, post production, quote)', () => {
    expect(PROJECT_LIMITS.maxSeconds).toBe(3600);
    expect(codes(sw({ seconds: 3600 }))).toEqual([]);
    expect(codes(pp({ seconds: 3600 }))).toEqual([]);
    const both = svc(sw({ seconds: 3601 }), 2, { seconds: 3601 });
    expect(codes(both)).toEqual([
      ['SECONDS_WRONG_TYPE', `${S0}.seconds`],
      ['SECONDS_WRONG_TYPE', `${S2}.seconds`],
    ]);
    expect(validateCreateProject(both, SANDBOX)[0]!.message).toContain('3600');
    const { title: _title, ...quote } = both;
    expect(validateQuote(quote, SANDBOX).map((i) => i.code)).toEqual([
      'SECONDS_WRONG_TYPE',
      'SECONDS_WRONG_TYPE',
    ]);
  });

  it('answers a huge services array with one SERVICE_NOT_ALLOWED issue, without looking at each entry', () => {
    const services = Array.from({ length: 50_000 }, () => ({ subCategory: 'voice_over' }));
    const issues = validateCreateProject(vo({ services }), SANDBOX);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'SERVICE_NOT_ALLOWED', path: 'services' });
    expect(issues[0]!.message).toContain(String(PROJECT_LIMITS.maxServices));
    const ten = Array.from({ length: PROJECT_LIMITS.maxServices }, () => ({ subCategory: 'voice_over' }));
    expect(validateCreateProject(vo({ services: ten }), SANDBOX)[0]?.path).not.toBe('services');
  });

  it('bounds the parts, words and characters of a script with SCRIPT_WRONG_TYPE', () => {
    const parts = (n: number) => Array.from({ length: n }, (_, i) => ({ [`part${i + 1}`]: 'Hello.' }));
    expect(codes(voS({ script: parts(100) }))).toEqual([]);
    expect(codes(voS({ script: parts(101) }))).toEqual([['SCRIPT_WRONG_TYPE', `${S0}.script`]]);
    expect(validateCreateProject(voS({ script: parts(50_000) }), SANDBOX)).toHaveLength(1);
    const manyKeys = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, 'x']));
    expect(codes(voS({ script: [manyKeys] }))).toEqual([['SCRIPT_WRONG_TYPE', `${S0}.script`]]);
    expect(codes(voS({ script: 'word '.repeat(8000) }))).toEqual([]);
    expect(codes(voS({ script: 'word '.repeat(8001) }))).toEqual([['SCRIPT_WRONG_TYPE', `${S0}.script`]]);
    expect(codes(voS({ script: [{ a: 'word '.repeat(4000) }, { b: 'word '.repeat(4001) }] }))).toEqual([
      ['SCRIPT_WRONG_TYPE', `${S0}.script`],
    ]);
    expect(codes(voS({ language: 'jpn-jp', script: '語'.repeat(100_000) }))).toEqual([]);
    expect(codes(voS({ language: 'jpn-jp', script: '語'.repeat(100_001) }))).toEqual([
      ['SCRIPT_WRONG_TYPE', `${S0}.script`],
    ]);
    expect(validateCreateProject(voS({ script: 'word '.repeat(1_000_000) }), SANDBOX)[0]!.message).toContain(
      '8000',
    );
  });

  it.each([['service' as const], [undefined]])(
    'never refuses a live account request on a sandbox bound (kind %s): the live service states none',
    (accountKind) => {
      const live = (body: unknown) => validateCreateProject(body, { accountKind }).map((i) => i.code);
      expect(live(svc(sw({ seconds: 7200 }), 2, { seconds: 5400 }))).toEqual([]);
      const { title: _title, ...quote } = svc(sw({ seconds: 7200 }), 2, { seconds: 5400 });
      expect(validateQuote(quote, { accountKind }).map((i) => i.code)).toEqual([]);
      const parts = Array.from({ length: 250 }, (_, i) => ({ [`part${i + 1}`]: 'Chapter text.' }));
      expect(live(voS({ script: parts }))).toEqual([]);
      expect(live(voS({ script: 'word '.repeat(60_000) }))).toEqual([]);
      expect(live(voS({ language: 'jpn-jp', script: '語'.repeat(200_000) }))).toEqual([]);
      // What the service itself states is still checked.
      expect(live(sw({ seconds: 0 }))).toEqual(['SECONDS_WRONG_TYPE']);
    },
  );

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    'refuses the prototype key %j as mainService, fulfillmentType and subCategory',
    (key) => {
      const options = { authorizedMainServices: new Set([key, 'voice_over']) };
      expect(() => validateCreateProject(vo({ mainService: key }), options)).not.toThrow();
      expect(codes(vo({ mainService: key }))).toEqual([['MAINSERVICE_NOT_AUTHORIZED', 'mainService']]);
      expect(codes(vo({ fulfillmentType: key }))).toEqual([
        ['FULFILLMENT_TYPE_NOT_ALLOWED', 'fulfillmentType'],
      ]);
      expect(codes(voS({ subCategory: key }))[0]).toEqual([
        'SUBCATEGORY_NOT_AUTHORIZED',
        `${S0}.subCategory`,
      ]);
    },
  );
});
