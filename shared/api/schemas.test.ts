import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as S from './schemas';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const voiceOverService = {
  id: id(11),
  subCategory: 'voice_over',
  language: 'eng-us',
  genderAndAge: 'teenageGirl',
  purpose: 'radioTvAds',
  script: [{ part001: 'Fresh bread, every morning.' }],
  price: 31,
  status: 'paid',
  units: 4,
  unitType: 'words',
};

const voiceOverProject = {
  id: id(1),
  title: 'Bakery spot',
  mainService: 'voice_over',
  fulfillmentType: 'speedy',
  created: '2026-11-21T18:17:38',
  status: 'paid',
  price: 31,
  fake: false,
  test: true,
  remarks: '',
  services: [voiceOverService],
};

const audioAdsProject = {
  ...voiceOverProject,
  id: id(2),
  mainService: 'audio_ads',
  fulfillmentType: 'contest',
  services: [
    {
      id: id(21),
      subCategory: 'scriptwriting',
      seconds: 30,
      language: 'eng-us',
      voicePerspective: 'service-pro-choice',
      topic: 'Bakery opening',
      purpose: 'Bring people in',
      targetAudience: 'Neighbours',
      tone: { seriousHumorous: -2, conciseWordy: 1 },
      price: 50,
      status: 'paid',
      units: 75,
      unitType: 'words',
    },
    {
      id: id(22),
      subCategory: 'voice_over',
      language: 'eng-us',
      genderAndAge: 'middleAgeMale',
      purpose: 'radioTvAds',
      price: 40,
      status: 'paid',
      units: 30,
      unitType: 'seconds',
    },
    {
      id: id(23),
      subCategory: 'post-production',
      seconds: 30,
      trackId: 20,
      proSelectsMusic: false,
      language: 'eng-us',
      backgroundMusic: 'audioads-music-library',
      price: 20,
      status: 'paid',
      units: 30,
      unitType: 'seconds',
    },
  ],
};

const deliverable = {
  id: id(31),
  serviceSubCategory: 'voice_over',
  name: 'part1',
  status: 'reviewable',
  urls: { wav: 'https://files.example/p1.wav', mp3: 'https://files.example/p1.mp3' },
};
const scriptDeliverable = {
  id: id(32),
  serviceSubCategory: 'scriptwriting',
  name: 'Script',
  status: 'reviewable',
  urls: { pdf: 'https://files.example/s.pdf', content: 'Fresh bread, every morning.' },
};
const sample = {
  publicId: 'pro-1',
  fullName: 'Ada Voice',
  currency: 'USD',
  price: 45,
  listPrice: 50,
  language: 'eng-us',
  genderAndAge: 'teenageGirl',
  url: 'https://files.example/sample.mp3',
};

/** Response schemas with a valid example each: they must accept it and keep unknown fields. */
const RESPONSES: Array<[string, z.ZodType, unknown]> = [
  ['Project (voice_over)', S.Project, voiceOverProject],
  ['Project (audio_ads)', S.Project, audioAdsProject],
  ['ProjectService', S.ProjectService, voiceOverService],
  [
    'CancelProjectResponse',
    S.CancelProjectResponse,
    {
      ...voiceOverProject,
      services: undefined,
      status: 'canceled',
      reason: 'dup',
      reasonCode: 'no_longer_needed.duplicated',
    },
  ],
  [
    'ListProjectsResponse',
    S.ListProjectsResponse,
    { page: 1, total: 2, projects: [voiceOverProject, audioAdsProject] },
  ],
  ['Deliverable (audio)', S.Deliverable, deliverable],
  ['Deliverable (script)', S.Deliverable, scriptDeliverable],
  ['DeliverablesResponse', S.DeliverablesResponse, [deliverable, scriptDeliverable]],
  [
    'DeliverableSummary',
    S.DeliverableSummary,
    { id: id(31), serviceSubCategory: 'voice_over', name: 'part1', status: 'approved' },
  ],
  [
    'RejectResponse',
    S.RejectResponse,
    {
      ...deliverable,
      urls: undefined,
      status: 'rejected',
      reason: 'x',
      reasonCode: 'genderAndAgeChange',
      newGenderAndAge: 'seniorMale',
    },
  ],
  [
    'RevisionResponse',
    S.RevisionResponse,
    {
      id: id(31),
      serviceSubCategory: 'voice_over',
      name: 'part1',
      status: 'revisionRequested',
      instructions: 'Slower',
      reason: 'both',
      revisionCode: 'quality_issues',
      checkTalent: false,
    },
  ],
  [
    'ApproveAllResponse',
    S.ApproveAllResponse,
    [{ id: id(31), serviceSubCategory: 'voice_over', name: 'part1', status: 'approved' }],
  ],
  [
    'VersionsResponse',
    S.VersionsResponse,
    {
      id: id(31),
      serviceSubCategory: 'voice_over',
      name: 'part1',
      status: 'reviewable',
      versions: [{ created: '2026-11-21T18:17:38', instructions: 'Slower', urls: deliverable.urls }],
    },
  ],
  ['Sample', S.Sample, sample],
  ['SearchResponse', S.SearchResponse, { page: 1, totalPages: 1, total: 1, samples: [sample] }],
  ['ErrorBody', S.ErrorBody, { status: 404, type: 'DELIVERABLE_NO_EXIST', message: 'no' }],
  [
    'Category',
    S.Category,
    {
      id: 'voice_over',
      name: 'voice',
      subCategories: [{ id: 'voice_over', brandName: 'Voice over', formats: ['mp3', 'wav'] }],
    },
  ],
  ['CategoryAttribute', S.CategoryAttribute, { id: 'language', name: 'Language', defaultValue: 'eng-us' }],
  ['AttributeValue', S.AttributeValue, { id: 'eng-us', name: 'English - North America' }],
  [
    'Track',
    S.Track,
    {
      id: 20,
      fileName: 'Casual1',
      type: 'mood',
      typeLabel: 'Mood',
      subType: 'casual',
      subTypeLabel: 'Casual',
      url: { wav: 'https://f/x.wav', mp3: 'https://f/x.mp3' },
    },
  ],
  [
    'QuoteResponse',
    S.QuoteResponse,
    {
      mainService: 'voice_over',
      fulfillmentType: 'speedy',
      price: 31,
      services: [{ subCategory: 'voice_over', price: 31 }],
    },
  ],
  ['SignInResponse', S.SignInResponse, { token: 'eyJhbGciOiJIUzUxMiIs.x.y' }],
];

function withExtra(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withExtra);
  if (typeof value === 'object' && value !== null) return { ...value, futureField: { nested: true } };
  return value;
}

describe('response schemas', () => {
  it.each(RESPONSES)('%s accepts the spec example', (_name, schema, example) => {
    expect(schema.safeParse(example).success).toBe(true);
  });

  it.each(RESPONSES)('%s keeps unknown fields', (_name, schema, example) => {
    const parsed = schema.parse(withExtra(example));
    const first = Array.isArray(parsed) ? parsed[0] : parsed;
    expect(first).toMatchObject({ futureField: { nested: true } });
  });

  it('keeps unknown fields inside services, urls and versions', () => {
    const project = S.Project.parse({ ...voiceOverProject, services: [{ ...voiceOverService, extra: 1 }] });
    expect(project.services[0]).toMatchObject({ extra: 1 });
    const d = S.Deliverable.parse({
      ...deliverable,
      urls: { ...deliverable.urls, flac: 'https://f/x.flac' },
    });
    expect(d.urls).toMatchObject({ flac: 'https://f/x.flac' });
  });

  it('accepts status and category values it does not know yet', () => {
    expect(S.Project.parse({ ...voiceOverProject, status: 'archived', mainService: 'podcast' }).status).toBe(
      'archived',
    );
    expect(S.Deliverable.parse({ ...deliverable, status: 'expired' }).status).toBe('expired');
  });

  it.each<[string, z.ZodType, unknown]>([
    ['Project price as string', S.Project, { ...voiceOverProject, price: '31.00' }],
    ['Project without id', S.Project, { ...voiceOverProject, id: undefined }],
    ['Project fake as string', S.Project, { ...voiceOverProject, fake: 'false' }],
    ['Project services not an array', S.Project, { ...voiceOverProject, services: {} }],
    ['service units as string', S.ProjectService, { ...voiceOverService, units: '4' }],
    ['Deliverable urls as string', S.Deliverable, { ...deliverable, urls: 'https://x' }],
    ['Deliverable name as number', S.Deliverable, { ...deliverable, name: 1 }],
    ['Sample price missing', S.Sample, { ...sample, price: undefined }],
    [
      'SearchResponse samples not array',
      S.SearchResponse,
      { page: 1, totalPages: 1, total: 1, samples: sample },
    ],
    ['ListProjectsResponse total as string', S.ListProjectsResponse, { page: 1, total: '2', projects: [] }],
    ['ErrorBody status as string', S.ErrorBody, { status: '404', type: 'X', message: 'm' }],
    [
      'Track id as string',
      S.Track,
      {
        id: '20',
        fileName: 'a',
        type: 't',
        typeLabel: 'T',
        subType: 's',
        subTypeLabel: 'S',
        url: { wav: 'w', mp3: 'm' },
      },
    ],
    [
      'RevisionResponse checkTalent as string',
      S.RevisionResponse,
      {
        id: 'd',
        serviceSubCategory: 'voice_over',
        name: 'p',
        status: 'revisionRequested',
        instructions: 'i',
        checkTalent: 'no',
      },
    ],
  ])('rejects %s', (_name, schema, value) => {
    expect(schema.safeParse(value).success).toBe(false);
  });
});

describe('create-time schemas', () => {
  const voiceOverBody = {
    title: 'Bakery spot',
    mainService: 'voice_over',
    services: [
      { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'teenageGirl', script: 'Fresh bread.' },
    ],
  };
  const audioAdsBody = {
    title: 'Bakery ad',
    mainService: 'audio_ads',
    fulfillmentType: 'booking',
    remarks: 'Warm tone',
    services: [
      {
        subCategory: 'scriptwriting',
        seconds: 30,
        language: 'eng-us',
        topic: 'Opening',
        purpose: 'Footfall',
        targetAudience: 'Locals',
        keywords: 'bread, fresh',
        tone: {
          seriousHumorous: -3,
          conciseWordy: 2,
          objectiveOpinionated: 0,
          sincereSarcastic: -1,
          journalisticCreative: 4,
        },
        assetsFiles: ['https://files.example/logo.png'],
      },
      { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'middleAgeMale', remarks: 'Smile' },
      {
        subCategory: 'post-production',
        seconds: 30,
        ownMusicFile: 'https://files.example/m.mp3',
        ownMusicFileRights: true,
      },
    ],
  };

  it('fills the spec defaults on a voice over body', () => {
    const parsed = S.CreateProjectBody.parse(voiceOverBody);
    expect(parsed).toMatchObject({ fulfillmentType: 'speedy', fake: false, test: false, remarks: '' });
    expect(parsed.services[0]).toMatchObject({ purpose: 'radioTvAds', script: 'Fresh bread.' });
  });

  it('fills the spec defaults on an audio ads body', () => {
    const parsed = S.CreateProjectBody.parse(audioAdsBody);
    expect(parsed.mainService).toBe('audio_ads');
    expect(parsed.services[0]).toMatchObject({ voicePerspective: 'service-pro-choice' });
    expect(parsed.services[1]).toMatchObject({ purpose: 'radioTvAds' });
    expect(parsed.services[2]).toMatchObject({ proSelectsMusic: false });
  });

  it('accepts a script as an array of part objects', () => {
    const body = {
      ...voiceOverBody,
      services: [{ ...voiceOverBody.services[0], script: [{ part001: 'a' }, { part002: 'b' }] }],
    };
    expect(S.CreateProjectBody.safeParse(body).success).toBe(true);
  });

  it.each<[string, unknown]>([
    ['unknown mainService', { ...voiceOverBody, mainService: 'podcast' }],
    ['title as number', { ...voiceOverBody, title: 7 }],
    ['fake as string', { ...voiceOverBody, fake: 'yes' }],
    ['fulfillmentType outside the list', { ...voiceOverBody, fulfillmentType: 'express' }],
    [
      'script part with a number',
      { ...voiceOverBody, services: [{ ...voiceOverBody.services[0], script: [{ part001: 3 }] }] },
    ],
    ['script as number', { ...voiceOverBody, services: [{ ...voiceOverBody.services[0], script: 3 }] }],
    [
      'scriptwriting service in a voice over project',
      { ...voiceOverBody, services: [audioAdsBody.services[0]] },
    ],
    [
      'tone value as string',
      { ...audioAdsBody, services: [{ ...audioAdsBody.services[0], tone: { conciseWordy: 'lots' } }] },
    ],
    ['seconds as string', { ...audioAdsBody, services: [{ ...audioAdsBody.services[2], seconds: '30' }] }],
    [
      'assetsFiles with a non-URL',
      { ...audioAdsBody, services: [{ ...audioAdsBody.services[1], assetsFiles: ['not a url'] }] },
    ],
  ])('rejects %s', (_name, body) => {
    expect(S.CreateProjectBody.safeParse(body).success).toBe(false);
  });

  it('parses the request bodies of the other operations', () => {
    expect(S.CancelProjectBody.parse({ status: 'canceled', reasonCode: 'late_delivery.1_2' }).status).toBe(
      'canceled',
    );
    expect(S.CancelProjectBody.safeParse({ status: 'paid' }).success).toBe(false);
    expect(
      S.DeliverableStatusBody.parse({
        status: 'rejected',
        reasonCode: 'genderAndAgeChange',
        newGenderAndAge: 'seniorMale',
      }),
    ).toMatchObject({
      newGenderAndAge: 'seniorMale',
    });
    expect(S.DeliverableStatusBody.parse({ status: 'winner' }).status).toBe('winner');
    expect(S.DeliverableStatusBody.safeParse({ status: 'revisionRequested' }).success).toBe(false);
    expect(S.ApproveAllBody.parse({ status: 'approve' }).status).toBe('approve');
    expect(S.ApproveAllBody.safeParse({ status: 'yes' }).success).toBe(false);
    expect(S.RevisionBody.parse({ instructions: 'Slower' })).toEqual({
      instructions: 'Slower',
      checkTalent: false,
    });
    expect(S.RevisionBody.safeParse({ instructions: 'x', checkTalent: 'true' }).success).toBe(false);
    expect(S.SignInBody.safeParse({ email: 'a@b.c' }).success).toBe(false);
    expect(
      S.QuoteBody.parse({ mainService: 'voice_over', services: voiceOverBody.services }).fulfillmentType,
    ).toBe('speedy');
  });
});

describe('query schemas', () => {
  it('coerces list-projects query strings and fills defaults', () => {
    expect(S.ListProjectsQuery.parse({})).toEqual({ page: 1, pageSize: 20, titleQuery: '', category: '' });
    expect(S.ListProjectsQuery.parse({ page: '3', pageSize: '50', titleQuery: 'bak' })).toMatchObject({
      page: 3,
      pageSize: 50,
    });
    expect(S.ListProjectsQuery.safeParse({ page: 'two' }).success).toBe(false);
    expect(S.ListProjectsQuery.safeParse({ page: '0' }).success).toBe(false);
  });

  it('fills the search defaults and treats empty numbers as absent', () => {
    const q = S.SearchQuery.parse({
      categoryId: 'voice_over',
      minimumPrice: '',
      units: '30',
      turnAroundTimeDays: '2',
    });
    expect(q).toMatchObject({
      currency: 'USD',
      page: 1,
      pageSize: 20,
      unitType: 'units',
      units: 30,
      turnAroundTimeDays: 2,
    });
    expect(q.minimumPrice).toBeUndefined();
    expect(S.SearchQuery.safeParse({}).success).toBe(false);
    expect(S.SearchQuery.safeParse({ categoryId: 'voice_over', maximumPrice: 'cheap' }).success).toBe(false);
  });

  it('leaves an unknown unitType to the service error, not the parser', () => {
    expect(S.SearchQuery.parse({ categoryId: 'voice_over', unitType: 'weeks' }).unitType).toBe('weeks');
    expect(S.UNIT_TYPES).toEqual(['seconds', 'minutes', 'hours', 'units']);
  });

  it.each([
    ['search', S.SearchParams, S.SearchQuery],
    ['projects list', S.ListProjectsParams, S.ListProjectsQuery],
    ['tracks', S.TracksParams, S.TracksQuery],
  ] as const)('the %s query string reads exactly the fields a caller sends', (_name, params, query) => {
    expect(Object.keys(query.shape).sort()).toEqual(Object.keys(params.shape).sort());
  });

  it('bounds what a caller may ask, where the service reads any text', () => {
    const long = 'x'.repeat(101);
    expect(S.SearchParams.safeParse({ categoryId: 'voice_over', language: long }).success).toBe(false);
    expect(S.SearchParams.safeParse({ categoryId: 'a/b' }).success).toBe(false);
    expect(S.SearchParams.safeParse({ categoryId: 'voice_over', pageSize: 501 }).success).toBe(false);
    expect(S.SearchQuery.parse({ categoryId: 'voice_over', language: long }).language).toBe(long);
    expect(S.ListProjectsParams.safeParse({ titleQuery: 'x'.repeat(201) }).success).toBe(false);
  });

  it('drops empty track filters', () => {
    expect(S.TracksQuery.parse({ typeId: '', subtypeId: 'casual' })).toEqual({
      typeId: undefined,
      subtypeId: 'casual',
    });
  });
});

describe('isoNoZone', () => {
  it('writes ISO 8601 without a zone offset', () => {
    expect(S.isoNoZone(new Date(Date.UTC(2026, 10, 21, 18, 17, 38, 456)))).toBe('2026-11-21T18:17:38');
  });
});

describe('JSON Schema generation', () => {
  const schemas = Object.entries(S).flatMap(([name, value]): Array<[string, z.ZodType]> =>
    value instanceof z.ZodType ? [[name, value]] : [],
  );

  it('finds the exported schemas', () => {
    expect(schemas.length).toBeGreaterThan(50);
  });

  it.each(schemas)('%s converts for the OpenAPI document', (_name, schema) => {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
    expect(typeof json).toBe('object');
  });

  it('marks response objects as open to extra properties', () => {
    const json = z.toJSONSchema(S.Project) as { additionalProperties?: unknown };
    expect(json.additionalProperties).not.toBe(false);
  });
});
