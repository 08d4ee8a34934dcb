/**
 * Answers shaped as the live service gives them (issue 14, item 4), in one place: the examples of its own
 * documentation (docs/service.md#endpoints) and the shapes the interface leaves open
 * (docs/service.md#beyond-the-interface-text) — deliverables
 * without files, services without units, unknown statuses, extra fields, zone-less and zoned dates, and lists
 * with one item nobody could read. live-shapes.test.ts replays each through the client on 127.0.0.1.
 */

/** One recorded answer: the route it answers and its body (a string is sent as is). */
export interface CorpusAnswer {
  route: string;
  status?: number;
  body: unknown;
}

const wav = (name: string) => `https://cdn.example.com/deliverables/${name}.wav?sig=abc`;
const mp3 = (name: string) => `https://cdn.example.com/deliverables/${name}.mp3?sig=abc`;

/** A voice over service as the live pages show it: no units or unitType, a status of the live list, extras. */
const liveVoiceService = {
  id: '7c1d3f2e-0000-4000-8000-000000000001',
  subCategory: 'voice_over',
  price: 31.0,
  status: 'unassigned',
  language: 'eng-us',
  genderAndAge: 'teenageGirl',
  purpose: 'radioTvAds',
  script: [{ part001: 'Fresh bread every morning.' }],
  deliveryDays: 2,
};

export const LIVE_CORPUS = {
  /** docs:categories/getAll example, verbatim. */
  categories: {
    route: 'GET /categories',
    body: [
      {
        id: 'voice_over',
        name: 'voice',
        subCategories: [{ id: 'voice_over', brandName: 'Voice over', formats: ['mp3', 'wav'] }],
      },
    ],
  },
  /** docs:categories/getAttributes example, verbatim. */
  attributes: {
    route: 'GET /categories/voice_over/attributes',
    body: [{ id: 'language', name: 'Language', defaultValue: 'eng-us' }],
  },
  /** docs:categories/getAttributesValues example, plus an entry without a name (skipped). */
  attributeValues: {
    route: 'GET /categories/voice_over/attribute/language/values',
    body: [{ id: 'eng-us', name: 'English - North America' }, { id: 'spa-mx' }],
  },
  /** docs:tracks/get example (id 20, Casual1, mood/casual). */
  tracks: {
    route: 'GET /tracks',
    body: [
      {
        id: 20,
        fileName: 'Casual1',
        type: 'mood',
        typeLabel: 'Mood',
        subType: 'casual',
        subTypeLabel: 'Casual',
        url: {
          wav: 'https://cdn.example.com/tracks/Casual1.wav',
          mp3: 'https://cdn.example.com/tracks/Casual1.mp3',
        },
      },
      { id: 'twenty-one', fileName: 'Broken' },
    ],
  },
  /** docs:projects/cancel example: price 31.00, test true, created without a zone; reason fields. */
  cancel: {
    route: 'PUT /projects/p-live',
    body: {
      id: 'p-live',
      title: 'Spring campaign',
      mainService: 'voice_over',
      fulfillmentType: 'speedy',
      created: '2023-03-03T18:17:38',
      status: 'canceled',
      price: 31.0,
      fake: false,
      test: true,
      reason: 'Duplicated by mistake',
      reasonCode: 'no_longer_needed.duplicated',
    },
  },
  /**
   * A new client's project (docs/service.md#new-projects-wait): pendingInternalReview, a space in its date,
   * no units, extras.
   */
  projectPending: {
    route: 'GET /projects/p-live',
    body: {
      id: 'p-live',
      title: 'Spring campaign',
      mainService: 'voice_over',
      fulfillmentType: 'speedy',
      created: '2026-11-23 09:00:00',
      status: 'pendingInternalReview',
      price: 31.0,
      fake: false,
      test: false,
      remarks: '',
      services: [liveVoiceService],
      brand: 'bunny',
      links: { self: '/projects/p-live' },
    },
  },
  /** An audio ad with zoned dates, a status no list names, and one service nobody can read (no id). */
  projectAudioAd: {
    route: 'GET /projects/p-ad',
    body: {
      id: 'p-ad',
      title: 'Summer ad',
      mainService: 'audio_ads',
      fulfillmentType: 'contest',
      created: '2026-11-23T10:00:00+01:00',
      status: 'onHold',
      price: 120.5,
      fake: false,
      test: false,
      services: [
        { id: 's-sw', subCategory: 'scriptwriting', price: 40, status: 'assigned', seconds: 30 },
        {
          id: 's-vo',
          subCategory: 'voice_over',
          price: 50,
          status: 'inviting',
          units: 30,
          unitType: 'seconds',
        },
        { subCategory: 'post-production', price: 30.5, status: 'unassigned' },
      ],
    },
  },
  /** Projects list: three items, the second unreadable (no id), with zoned and zone-less dates. */
  projects: {
    route: 'GET /projects',
    body: {
      page: 1,
      total: 3,
      projects: [
        {
          id: 'p1',
          title: 'One',
          created: '2026-11-23T09:00:00Z',
          status: 'paid',
          mainService: 'voice_over',
        },
        { title: 'Two without an id', status: 'paid' },
        { id: 'p3', title: 'Three', created: '2026-11-22 08:00:00', status: 'somethingNew', extra: [1, 2] },
      ],
    },
  },
  /**
   * Deliverables (docs/service.md#undelivered-takes): not delivered yet (urls absent, null), delivered,
   * unknown, unreadable.
   */
  deliverables: {
    route: 'GET /deliverables/project/p-live',
    body: [
      { id: 'd1', serviceSubCategory: 'voice_over', name: 'part1', status: 'unassigned' },
      { id: 'd2', serviceSubCategory: 'voice_over', name: 'Part 2', status: 'assigned', urls: null },
      {
        id: 'd3',
        serviceSubCategory: 'voice_over',
        name: 'part3',
        status: 'reviewable',
        urls: { wav: wav('d3'), mp3: mp3('d3') },
        deliveredAt: '2026-11-23T12:00:00.000Z',
      },
      { id: 'd4', serviceSubCategory: 'scriptwriting', name: 'Script', status: 'qualityCheck', urls: {} },
      { id: 'd5', name: 'No category', status: 'reviewable', urls: { wav: wav('d5') } },
    ],
  },
  /** docs:deliverables/getSingle: a script deliverable with its pdf and the text inline. */
  scriptDeliverable: {
    route: 'GET /deliverables/d-script',
    body: {
      id: 'd-script',
      serviceSubCategory: 'scriptwriting',
      name: 'Script',
      status: 'reviewable',
      urls: { pdf: 'https://cdn.example.com/d-script.pdf', content: 'Looking for bread?' },
    },
  },
  /** An undelivered single deliverable: urls null. */
  pendingDeliverable: {
    route: 'GET /deliverables/d2',
    body: { id: 'd2', serviceSubCategory: 'voice_over', name: 'Part 2', status: 'assigned', urls: null },
  },
  /**
   * docs:revisions/getVersions: versions with zone-less and zoned dates, one without files, one unreadable.
   */
  versions: {
    route: 'GET /revisions/d3/versions',
    body: {
      id: 'd3',
      serviceSubCategory: 'voice_over',
      name: 'part3',
      status: 'reviewable',
      versions: [
        { created: '2026-11-23 12:00:00', instructions: null, urls: { wav: wav('d3v1'), mp3: mp3('d3v1') } },
        { created: '2026-11-24T08:00:00Z', instructions: 'Slower', urls: null },
        { instructions: 'No date at all', urls: {} },
      ],
    },
  },
  /** Approve-all answer: three summaries, one unreadable. */
  approveAll: {
    route: 'PUT /deliverables/project/p-live',
    body: [
      { id: 'd3', serviceSubCategory: 'voice_over', name: 'part3', status: 'approved' },
      { id: 'd6', serviceSubCategory: 'voice_over', name: 'part6', status: 'approved', approvedBy: 'api' },
      { id: 'd7', status: 'approved' },
    ],
  },
  /** docs:revisions/create example values (reason "both", revisionCode "quality_issues"). */
  revision: {
    route: 'POST /revisions/d3',
    body: {
      id: 'd3',
      serviceSubCategory: 'voice_over',
      name: 'part3',
      status: 'revisionRequested',
      instructions: 'Slower at 0:03',
      reason: 'both',
      revisionCode: 'quality_issues',
      checkTalent: false,
    },
  },
  /** docs:quotes/quote example (price 31.00). */
  quote: {
    route: 'POST /quote',
    body: { mainService: 'voice_over', fulfillmentType: 'speedy', price: 31.0, services: [{ price: 31.0 }] },
  },
  /** docs:users/authentication: a JWT-looking token. */
  signIn: {
    route: 'POST /users/auth',
    body: { token: 'eyJhbGciOiJIUzUxMiIsInR5cCI6IkpXVCJ9.e30.sig' },
  },
  /** Search: one sample without a price (skipped), extra fields on the others. */
  search: {
    route: 'GET /search',
    body: {
      page: 1,
      totalPages: 1,
      total: 3,
      samples: [
        {
          publicId: 'pro-1',
          fullName: 'Ada Voice',
          currency: 'USD',
          price: 31,
          listPrice: 35,
          language: 'eng-us',
          genderAndAge: 'teenageGirl',
          url: 'https://cdn.example.com/s1.mp3',
          rating: 4.9,
        },
        { publicId: 'pro-2', fullName: 'No Price', currency: 'USD', language: 'eng-us' },
        {
          publicId: 'pro-3',
          fullName: 'Bo Voice',
          currency: 'USD',
          price: 40,
          listPrice: 40,
          language: 'eng-us',
          genderAndAge: 'teenageGirl',
          url: 'https://cdn.example.com/s3.mp3',
        },
      ],
    },
  },
} satisfies Record<string, CorpusAnswer>;

/** Answers a service may give to `PUT /deliverables/{id}` `{status:'winner'}` when it does not offer winners. */
export const WINNER_REFUSALS: Array<{ name: string; status: number; body: unknown }> = [
  {
    name: 'STATUS_NOT_ALLOWED (422)',
    status: 422,
    body: { status: 422, type: 'STATUS_NOT_ALLOWED', message: 'status not allowed' },
  },
  {
    name: 'a code of its own (400)',
    status: 400,
    body: { status: 400, type: 'WINNER_NOT_SUPPORTED', message: 'No.' },
  },
  { name: 'an HTML 404', status: 404, body: '<h1>Not Found</h1>' },
  { name: 'a bare 405', status: 405, body: '' },
];
