/**
 * Schemas and inferred types for every resource and message of the Creative Audio Projects
 * service (docs/service.md: the interface and the live pages).
 *
 * Why zod: types are inferred from the schemas, `.loose()`/looseObject keeps responses tolerant
 * of fields the spec does not list, and z.toJSONSchema() generates the OpenAPI document the
 * sandbox serves.
 *
 * Request schemas type the body; the spec's 422 validation codes come from validate-project.ts.
 */
import { z } from 'zod';
import { Id } from './ids';

// ---------------------------------------------------------------------------------------------
// Value lists

/** Project categories the spec names (`mainService`). */
export const MAIN_SERVICES = ['voice_over', 'audio_ads'] as const;
/** Fulfilment types (docs/service.md#project). */
export const FULFILLMENT_TYPES = ['speedy', 'booking', 'contest'] as const;
/** Project statuses of the interface plus the live list (docs/service.md#project-statuses). */
export const PROJECT_STATUSES = [
  'paid',
  'canceled',
  'pendingInternalReview',
  'pendingPayment',
  'completed',
] as const;
/** Deliverable statuses of the interface plus the live list (docs/service.md#deliverable-statuses). */
export const DELIVERABLE_STATUSES = [
  'reviewable',
  'approved',
  'rejected',
  'revisionRequested',
  'winner',
  'unassigned',
  'assigned',
] as const;
/** Service subcategory ids seen in the spec. */
export const SUB_CATEGORIES = ['voice_over', 'scriptwriting', 'post-production'] as const;
/** Allowed search `unitType` values; anything else is UNITTYPE_NOT_ALLOWED (a service error, not a parse error). */
export const UNIT_TYPES = ['seconds', 'minutes', 'hours', 'units'] as const;
/** The five tone sliders of a script writing service, in spec order. */
export const TONE_KEYS = [
  'seriousHumorous',
  'conciseWordy',
  'objectiveOpinionated',
  'sincereSarcastic',
  'journalisticCreative',
] as const;
/** `unitType` values a project service reports. */
export const SERVICE_UNIT_TYPES = ['words', 'characters', 'seconds'] as const;
/** Default `purpose` of a voice over service (docs/service.md#services). */
export const DEFAULT_PURPOSE = 'radioTvAds';
/**
 * Default `voicePerspective` of a script writing service (the interface's name wins over the live
 * `bunny-pro-choice`; docs/service.md#allowed-values).
 */
export const DEFAULT_VOICE_PERSPECTIVE = 'service-pro-choice';
/** The only `backgroundMusic` option the spec names for post production. */
export const BACKGROUND_MUSIC_LIBRARY = 'audioads-music-library';

/** A string schema typed as "one of the known values, or any other string" so reads never fail on new values. */
function openEnum<const T extends readonly string[]>(known: T) {
  return z.string().meta({ examples: [...known] }) as unknown as z.ZodType<T[number] | (string & {}), string>;
}

/** Query-string number: empty means absent, anything else is coerced. */
function queryNumber() {
  return z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().optional());
}
/** Query-string page number with a default. */
function queryPage(fallback: number) {
  return z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce.number().int().min(1).default(fallback),
  );
}
/** Query-string text: absent becomes the given default. */
function queryText(fallback: string) {
  return z.string().default(fallback);
}

/** Page number and size as a caller asks for them (bounded so no input asks for an absurd page). */
const requestPage = z.number().int().min(1).max(1_000_000);
const requestPageSize = z.number().int().min(1).max(500);
/** Request text with a length bound. */
const requestText = (max: number) => z.string().max(max);

/**
 * The query-string reading of a typed query: the same fields, each replaced only where the text of a URL
 * needs another rule (numbers arrive as text, the service's defaults fill what is absent). Overrides must
 * name fields of the query, so the two shapes cannot drift apart.
 */
function asQueryString<S extends z.ZodRawShape, O extends { [K in keyof S]?: z.ZodType }>(
  query: z.ZodObject<S>,
  fromText: O & Record<Exclude<keyof O, keyof S>, never>,
) {
  return query.extend(fromText);
}

export const MainService = z.enum(MAIN_SERVICES);
export type MainService = z.infer<typeof MainService>;
/** Read-time mainService: known values typed, unknown strings accepted. */
export const MainServiceRead = openEnum(MAIN_SERVICES);
export type MainServiceRead = z.infer<typeof MainServiceRead>;
export const FulfillmentType = z.enum(FULFILLMENT_TYPES);
export type FulfillmentType = z.infer<typeof FulfillmentType>;
export const FulfillmentTypeRead = openEnum(FULFILLMENT_TYPES);
export type FulfillmentTypeRead = z.infer<typeof FulfillmentTypeRead>;
/** Project status; the full live list is not known, so any string is accepted. */
export const ProjectStatus = openEnum(PROJECT_STATUSES);
export type ProjectStatus = z.infer<typeof ProjectStatus>;
export const DeliverableStatus = openEnum(DELIVERABLE_STATUSES);
export type DeliverableStatus = z.infer<typeof DeliverableStatus>;
export const SubCategory = z.enum(SUB_CATEGORIES);
export type SubCategory = z.infer<typeof SubCategory>;
export const UnitType = z.enum(UNIT_TYPES);
export type UnitType = z.infer<typeof UnitType>;

/** Timestamp format of the service: ISO 8601 without a zone offset, e.g. "2026-11-21T18:17:38" (UTC wall clock). */
export function isoNoZone(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/**
 * Epoch ms of a service timestamp, whatever its spelling: the spec's zone-less form (UTC wall clock), a
 * space instead of `T` ("2026-11-23 09:00:00"), or a zoned form ("…Z", "…+01:00"). NaN when unreadable.
 */
export function serviceTime(value: string | null | undefined): number {
  if (!value) return Number.NaN;
  const text = value.trim().replace(/^(\d{4}-\d{2}-\d{2})[ T]/, '$1T');
  const zoned = /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(text) || !text.includes('T') ? text : `${text}Z`;
  return Date.parse(zoned);
}

// ---------------------------------------------------------------------------------------------
// Create-time shapes

/** A script: one plain string, or an array of objects mapping a part key to its text. */
export const Script = z.union([z.string(), z.array(z.record(z.string(), z.string()))]);
export type Script = z.infer<typeof Script>;

/** Attachments: http(s) URLs. */
export const AssetsFiles = z.array(z.httpUrl());
export type AssetsFiles = z.infer<typeof AssetsFiles>;

/** Tone sliders; the numeric range is not shown in the spec, so any number is allowed. */
export const Tone = z.object({
  seriousHumorous: z.number().optional(),
  conciseWordy: z.number().optional(),
  objectiveOpinionated: z.number().optional(),
  sincereSarcastic: z.number().optional(),
  journalisticCreative: z.number().optional(),
});
export type Tone = z.infer<typeof Tone>;

/** The single service of a `voice_over` project. */
export const VoiceOverServiceInput = z.object({
  subCategory: z.literal('voice_over'),
  language: z.string(),
  genderAndAge: z.string(),
  purpose: z.string().default(DEFAULT_PURPOSE),
  script: Script,
});
export type VoiceOverServiceInput = z.infer<typeof VoiceOverServiceInput>;

/** Script writing service of an `audio_ads` project. */
export const ScriptwritingServiceInput = z.object({
  subCategory: z.literal('scriptwriting'),
  seconds: z.number().positive(),
  language: z.string(),
  voicePerspective: z.string().default(DEFAULT_VOICE_PERSPECTIVE),
  topic: z.string(),
  purpose: z.string(),
  targetAudience: z.string(),
  keywords: z.string().optional(),
  remarks: z.string().optional(),
  tone: Tone.optional(),
  assetsFiles: AssetsFiles.optional(),
});
export type ScriptwritingServiceInput = z.infer<typeof ScriptwritingServiceInput>;

/**
 * Voice over service inside an `audio_ads` project. Its script comes from script writing; an ad ordered without
 * script writing carries the producer's own, as a voice over project does.
 */
export const AudioAdsVoiceOverServiceInput = z.object({
  subCategory: z.literal('voice_over'),
  language: z.string(),
  genderAndAge: z.string(),
  purpose: z.string().default(DEFAULT_PURPOSE),
  remarks: z.string().optional(),
  script: Script.optional(),
  assetsFiles: AssetsFiles.optional(),
});
export type AudioAdsVoiceOverServiceInput = z.infer<typeof AudioAdsVoiceOverServiceInput>;

/** Post production service of an `audio_ads` project. */
export const PostProductionServiceInput = z.object({
  subCategory: z.literal('post-production'),
  seconds: z.number().positive(),
  remarks: z.string().optional(),
  trackId: z.number().int().optional(),
  ownMusicFile: z.httpUrl().optional(),
  ownMusicFileRights: z.boolean().optional(),
  proSelectsMusic: z.boolean().default(false),
  assetsFiles: AssetsFiles.optional(),
});
export type PostProductionServiceInput = z.infer<typeof PostProductionServiceInput>;

/** Any service of an `audio_ads` project, told apart by subCategory. */
export const AudioAdsServiceInput = z.discriminatedUnion('subCategory', [
  ScriptwritingServiceInput,
  AudioAdsVoiceOverServiceInput,
  PostProductionServiceInput,
]);
export type AudioAdsServiceInput = z.infer<typeof AudioAdsServiceInput>;

const projectInputCommon = {
  title: z.string(),
  fulfillmentType: FulfillmentType.default('speedy'),
  fake: z.boolean().default(false),
  test: z.boolean().default(false),
  // The client always sends remarks ("" when none) because the service may answer REMARKS_REQUIRED.
  remarks: z.string().default(''),
};

export const VoiceOverProjectInput = z.object({
  ...projectInputCommon,
  mainService: z.literal('voice_over'),
  services: z.array(VoiceOverServiceInput).min(1),
});
export type VoiceOverProjectInput = z.infer<typeof VoiceOverProjectInput>;

export const AudioAdsProjectInput = z.object({
  ...projectInputCommon,
  mainService: z.literal('audio_ads'),
  services: z.array(AudioAdsServiceInput).min(1),
});
export type AudioAdsProjectInput = z.infer<typeof AudioAdsProjectInput>;

/** Body of `POST /projects`, told apart by mainService. */
export const CreateProjectBody = z.discriminatedUnion('mainService', [
  VoiceOverProjectInput,
  AudioAdsProjectInput,
]);
export type CreateProjectBody = z.infer<typeof CreateProjectBody>;
/** The body as a caller writes it (defaults may be left out). */
export type CreateProjectBodyInput = z.input<typeof CreateProjectBody>;

// ---------------------------------------------------------------------------------------------
// Read-time shapes (all tolerate unknown fields)

/**
 * Service statuses: the interface's (the project's) plus the live list (docs/service.md#service-statuses).
 */
export const SERVICE_STATUSES = [
  'paid',
  'canceled',
  'unassigned',
  'assigned',
  'approved',
  'rejected',
] as const;
export const ServiceStatus = openEnum(SERVICE_STATUSES);
export type ServiceStatus = z.infer<typeof ServiceStatus>;

/**
 * Fields every returned service carries. `units`/`unitType` are in the spec's answer but the live service
 * may leave them out (issue 14), so a service without them still reads.
 */
export const ProjectServiceBase = z.looseObject({
  id: z.string(),
  subCategory: z.string(),
  price: z.number(),
  status: ServiceStatus,
  units: z.number().optional(),
  unitType: openEnum(SERVICE_UNIT_TYPES).optional(),
});
export type ProjectServiceBase = z.infer<typeof ProjectServiceBase>;

export const VoiceOverService = ProjectServiceBase.extend({
  language: z.string(),
  genderAndAge: z.string(),
  purpose: z.string().optional(),
  script: Script.optional(),
});
export type VoiceOverService = z.infer<typeof VoiceOverService>;

export const ScriptwritingService = ProjectServiceBase.extend({
  seconds: z.number().optional(),
  language: z.string().optional(),
  voicePerspective: z.string().optional(),
  topic: z.string().optional(),
  purpose: z.string().optional(),
  targetAudience: z.string().optional(),
  keywords: z.string().optional(),
  remarks: z.string().optional(),
  tone: z.looseObject(Tone.shape).optional(),
  assetsFiles: z.array(z.string()).optional(),
});
export type ScriptwritingService = z.infer<typeof ScriptwritingService>;

export const PostProductionService = ProjectServiceBase.extend({
  seconds: z.number().optional(),
  remarks: z.string().optional(),
  trackId: z.number().optional(),
  ownMusicFile: z.string().optional(),
  ownMusicFileRights: z.boolean().optional(),
  proSelectsMusic: z.boolean().optional(),
  assetsFiles: z.array(z.string()).optional(),
  language: z.string().optional(),
  backgroundMusic: z.string().optional(),
});
export type PostProductionService = z.infer<typeof PostProductionService>;

/**
 * A returned service of either category: the common fields are required, every category field is
 * optional, so one flat type serves voice over, script writing and post production.
 */
export const ProjectService = ProjectServiceBase.extend({
  language: z.string().optional(),
  genderAndAge: z.string().optional(),
  purpose: z.string().optional(),
  script: Script.optional(),
  seconds: z.number().optional(),
  voicePerspective: z.string().optional(),
  topic: z.string().optional(),
  targetAudience: z.string().optional(),
  keywords: z.string().optional(),
  remarks: z.string().optional(),
  tone: z.looseObject(Tone.shape).optional(),
  assetsFiles: z.array(z.string()).optional(),
  trackId: z.number().optional(),
  ownMusicFile: z.string().optional(),
  ownMusicFileRights: z.boolean().optional(),
  proSelectsMusic: z.boolean().optional(),
  backgroundMusic: z.string().optional(),
});
export type ProjectService = z.infer<typeof ProjectService>;

const projectFields = {
  id: z.string(),
  title: z.string(),
  mainService: MainServiceRead,
  fulfillmentType: FulfillmentTypeRead,
  created: z.string(),
  status: ProjectStatus,
  price: z.number(),
  fake: z.boolean(),
  test: z.boolean(),
};

/** A project as `POST /projects` and `GET /projects/{id}` return it. */
export const Project = z.looseObject({
  ...projectFields,
  remarks: z.string().optional(),
  services: z.array(ProjectService),
});
export type Project = z.infer<typeof Project>;

/** Body of `PUT /projects/{id}`; reasonCode is `main` or `main.sub` (see reasons.ts). */
export const CancelProjectBody = z.object({
  status: z.literal('canceled'),
  reason: z.string().optional(),
  reasonCode: z.string().optional(),
});
export type CancelProjectBody = z.infer<typeof CancelProjectBody>;

/** Cancel response: the project fields without services, plus reason and reasonCode. */
export const CancelProjectResponse = z.looseObject({
  ...projectFields,
  reason: z.string().nullish(),
  reasonCode: z.string().nullish(),
});
export type CancelProjectResponse = z.infer<typeof CancelProjectResponse>;

/** What a caller asks of `GET /projects`; absent fields take the service's defaults. */
export const ListProjectsParams = z.object({
  page: requestPage.optional(),
  pageSize: requestPageSize.optional(),
  titleQuery: requestText(200).optional(),
  category: requestText(100).optional(),
});
export type ListProjectsParams = z.infer<typeof ListProjectsParams>;

/** Query of `GET /projects` as the service reads it (numbers arrive as query strings). */
export const ListProjectsQuery = asQueryString(ListProjectsParams, {
  page: queryPage(1),
  pageSize: queryPage(20),
  titleQuery: queryText(''),
  category: queryText(''),
});
export type ListProjectsQuery = z.infer<typeof ListProjectsQuery>;

/** An element of the projects list; the spec does not show its shape, so only id and title are required. */
export const ProjectListItem = z.looseObject({
  id: z.string(),
  title: z.string(),
  mainService: MainServiceRead.optional(),
  fulfillmentType: FulfillmentTypeRead.optional(),
  created: z.string().optional(),
  status: ProjectStatus.optional(),
  price: z.number().optional(),
  fake: z.boolean().optional(),
  test: z.boolean().optional(),
  remarks: z.string().optional(),
  services: z.array(ProjectService).optional(),
});
export type ProjectListItem = z.infer<typeof ProjectListItem>;

export const ListProjectsResponse = z.looseObject({
  page: z.number(),
  total: z.number(),
  projects: z.array(ProjectListItem),
});
export type ListProjectsResponse = z.infer<typeof ListProjectsResponse>;

/** Download links: wav/mp3 for voice over and post production, pdf/content for script writing. */
export const DeliverableUrls = z.looseObject({
  wav: z.string().optional(),
  mp3: z.string().optional(),
  pdf: z.string().optional(),
  content: z.string().optional(),
});
export type DeliverableUrls = z.infer<typeof DeliverableUrls>;
/** Links of an audio deliverable. */
export const AudioUrls = z.looseObject({ wav: z.string(), mp3: z.string() });
export type AudioUrls = z.infer<typeof AudioUrls>;
/** Links of a script deliverable; `content` is the script text itself. */
export const ScriptUrls = z.looseObject({ pdf: z.string(), content: z.string() });
export type ScriptUrls = z.infer<typeof ScriptUrls>;

/** What status-changing calls return: `{ id, serviceSubCategory, name, status }`. */
export const DeliverableSummary = z.looseObject({
  id: z.string(),
  serviceSubCategory: z.string(),
  name: z.string(),
  status: DeliverableStatus,
});
export type DeliverableSummary = z.infer<typeof DeliverableSummary>;

/**
 * A deliverable not delivered yet (`unassigned`, `assigned`) has no files: `urls` absent or null reads as `{}`
 * (docs/service.md#undelivered-takes), so one such deliverable never breaks a list.
 */
export const Deliverable = DeliverableSummary.extend({
  urls: z.preprocess((value) => value ?? {}, DeliverableUrls),
});
export type Deliverable = z.infer<typeof Deliverable>;

/** Response of `GET /deliverables/project/{projectId}`. */
export const DeliverablesResponse = z.array(Deliverable);
export type DeliverablesResponse = z.infer<typeof DeliverablesResponse>;

export const ApproveDeliverableBody = z.object({ status: z.literal('approved') });
export type ApproveDeliverableBody = z.infer<typeof ApproveDeliverableBody>;
export const RejectDeliverableBody = z.object({
  status: z.literal('rejected'),
  reason: z.string().optional(),
  reasonCode: z.string().optional(),
  /** Required when the reason is `genderAndAgeChange`. */
  newGenderAndAge: z.string().optional(),
});
export type RejectDeliverableBody = z.infer<typeof RejectDeliverableBody>;
export const SelectWinnerBody = z.object({ status: z.literal('winner') });
export type SelectWinnerBody = z.infer<typeof SelectWinnerBody>;

/** Body of `PUT /deliverables/{id}`: one path, three operations chosen by `status`. */
export const DeliverableStatusBody = z.discriminatedUnion('status', [
  ApproveDeliverableBody,
  RejectDeliverableBody,
  SelectWinnerBody,
]);
export type DeliverableStatusBody = z.infer<typeof DeliverableStatusBody>;

export const ApproveDeliverableResponse = DeliverableSummary;
export type ApproveDeliverableResponse = DeliverableSummary;
export const SelectWinnerResponse = DeliverableSummary;
export type SelectWinnerResponse = DeliverableSummary;

export const RejectResponse = DeliverableSummary.extend({
  reason: z.string().nullish(),
  reasonCode: z.string().nullish(),
  newGenderAndAge: z.string().nullish(),
});
export type RejectResponse = z.infer<typeof RejectResponse>;

/** Body of `PUT /deliverables/project/{projectId}`; the spec's text says `approve`, its example `approved`. */
export const ApproveAllBody = z.object({ status: z.enum(['approved', 'approve']) });
export type ApproveAllBody = z.infer<typeof ApproveAllBody>;
export const ApproveAllResponse = z.array(DeliverableSummary);
export type ApproveAllResponse = z.infer<typeof ApproveAllResponse>;

/** Body of `POST /revisions/{deliverableId}`. */
export const RevisionBody = z.object({
  instructions: z.string(),
  /** Audio ads only: 'script' | 'audio' | 'both' (see reasons.ts). */
  reason: z.string().optional(),
  revisionCode: z.string().optional(),
  checkTalent: z.boolean().default(false),
});
export type RevisionBody = z.infer<typeof RevisionBody>;

export const RevisionResponse = DeliverableSummary.extend({
  instructions: z.string(),
  reason: z.string().nullish(),
  revisionCode: z.string().nullish(),
  checkTalent: z.boolean(),
});
export type RevisionResponse = z.infer<typeof RevisionResponse>;

export const DeliverableVersion = z.looseObject({
  created: z.string(),
  // The first (original) version has no revision behind it, so instructions may be empty or null.
  instructions: z.string().nullish(),
  urls: z.preprocess((value) => value ?? {}, DeliverableUrls),
});
export type DeliverableVersion = z.infer<typeof DeliverableVersion>;

/** Response of `GET /revisions/{deliverableId}/versions`. */
export const VersionsResponse = DeliverableSummary.extend({ versions: z.array(DeliverableVersion) });
export type VersionsResponse = z.infer<typeof VersionsResponse>;

// ---------------------------------------------------------------------------------------------
// Search

/** A pro's voice sample; open-ended beyond the listed fields. */
export const Sample = z.looseObject({
  publicId: z.string(),
  fullName: z.string(),
  currency: z.string(),
  price: z.number(),
  listPrice: z.number(),
  language: z.string(),
  genderAndAge: z.string(),
  url: z.string(),
});
export type Sample = z.infer<typeof Sample>;

/**
 * What a caller asks of `GET /search`; absent fields take the service's defaults. `unitType` accepts any
 * string: a value outside UNIT_TYPES is the service error UNITTYPE_NOT_ALLOWED, not a parse failure.
 * `purpose` is typed number in the spec but create uses string ids (a docs error; docs/service.md#search).
 */
export const SearchParams = z.object({
  categoryId: Id,
  currency: requestText(10).optional(),
  page: requestPage.optional(),
  pageSize: requestPageSize.optional(),
  language: requestText(100).optional(),
  genderAndAge: requestText(100).optional(),
  /** Maximum turnaround in days. */
  turnAroundTimeDays: z.number().int().min(0).max(365).optional(),
  minimumPrice: z.number().min(0).max(1e9).optional(),
  maximumPrice: z.number().min(0).max(1e9).optional(),
  units: z.number().min(0).max(1e9).optional(),
  unitType: requestText(20).optional(),
  purpose: z.union([z.number(), requestText(100)]).optional(),
});
export type SearchParams = z.infer<typeof SearchParams>;

/** Query of `GET /search` as the service reads it: numbers from text, the spec's defaults filled in. */
export const SearchQuery = asQueryString(SearchParams, {
  categoryId: z.string().min(1),
  currency: queryText('USD'),
  page: queryPage(1),
  pageSize: queryPage(20),
  turnAroundTimeDays: queryNumber(),
  minimumPrice: queryNumber(),
  maximumPrice: queryNumber(),
  units: queryNumber(),
  unitType: queryText('units'),
  // The service bounds its own text fields; the caller's limits above are main's, not the service's.
  language: z.string().optional(),
  genderAndAge: z.string().optional(),
  purpose: z.string().optional(),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export const SearchResponse = z.looseObject({
  page: z.number(),
  totalPages: z.number(),
  total: z.number(),
  samples: z.array(Sample),
});
export type SearchResponse = z.infer<typeof SearchResponse>;

/** Every error response: `{ status, type, message }`. */
export const ErrorBody = z.looseObject({
  status: z.number(),
  type: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

// ---------------------------------------------------------------------------------------------
// Endpoints of the live pages (docs/service.md#endpoints: categories, attributes, tracks, quote, sign-in)

export const SubCategoryInfo = z.looseObject({
  id: z.string(),
  brandName: z.string(),
  formats: z.array(z.string()),
});
export type SubCategoryInfo = z.infer<typeof SubCategoryInfo>;

/** Element of `GET /categories`. */
export const Category = z.looseObject({
  id: z.string(),
  name: z.string(),
  subCategories: z.array(SubCategoryInfo),
});
export type Category = z.infer<typeof Category>;
export const CategoriesResponse = z.array(Category);
export type CategoriesResponse = z.infer<typeof CategoriesResponse>;

/** Element of `GET /categories/{id}/attributes`. */
export const CategoryAttribute = z.looseObject({
  id: z.string(),
  name: z.string(),
  defaultValue: z.union([z.string(), z.number()]),
});
export type CategoryAttribute = z.infer<typeof CategoryAttribute>;
export const CategoryAttributesResponse = z.array(CategoryAttribute);
export type CategoryAttributesResponse = z.infer<typeof CategoryAttributesResponse>;

/** Element of `GET /categories/{id}/attribute/{attributeId}/values`. */
export const AttributeValue = z.looseObject({ id: z.string(), name: z.string() });
export type AttributeValue = z.infer<typeof AttributeValue>;
export const AttributeValuesResponse = z.array(AttributeValue);
export type AttributeValuesResponse = z.infer<typeof AttributeValuesResponse>;

/** A music library track (`GET /tracks`, `GET /tracks/{id}`). */
export const Track = z.looseObject({
  id: z.number(),
  fileName: z.string(),
  type: z.string(),
  typeLabel: z.string(),
  subType: z.string(),
  subTypeLabel: z.string(),
  url: z.looseObject({ wav: z.string(), mp3: z.string() }),
});
export type Track = z.infer<typeof Track>;
export const TracksResponse = z.array(Track);
export type TracksResponse = z.infer<typeof TracksResponse>;

/** What a caller asks of `GET /tracks`: a music type and subtype, both optional. */
export const TracksParams = z.object({
  typeId: requestText(100).optional(),
  subtypeId: requestText(100).optional(),
});
export type TracksParams = z.infer<typeof TracksParams>;

/** Query of `GET /tracks` as the service reads it: an empty value means absent. */
export const TracksQuery = asQueryString(TracksParams, {
  typeId: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  subtypeId: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
});
export type TracksQuery = z.infer<typeof TracksQuery>;

/** Body of `POST /quote`: a project body without title, flags and remarks. */
export const QuoteBody = z.discriminatedUnion('mainService', [
  VoiceOverProjectInput.pick({ mainService: true, fulfillmentType: true, services: true }),
  AudioAdsProjectInput.pick({ mainService: true, fulfillmentType: true, services: true }),
]);
export type QuoteBody = z.infer<typeof QuoteBody>;

export const QuoteResponse = z.looseObject({
  mainService: MainServiceRead,
  fulfillmentType: FulfillmentTypeRead,
  price: z.number(),
  services: z.array(z.looseObject({ subCategory: z.string().optional(), price: z.number().optional() })),
});
export type QuoteResponse = z.infer<typeof QuoteResponse>;

/** Body of `POST /users/auth`; email validity is the service's check (EMAIL_REQUIRED_NOT_VALID). */
export const SignInBody = z.object({ email: z.string(), password: z.string() });
export type SignInBody = z.infer<typeof SignInBody>;
export const SignInResponse = z.looseObject({ token: z.string() });
export type SignInResponse = z.infer<typeof SignInResponse>;
