// Read-time project shapes (all tolerate unknown fields): a returned service and project, the cancel call, and the
// projects list with its query.
import { z } from 'zod';
import {
  asQueryString,
  openEnum,
  queryPage,
  queryText,
  requestPage,
  requestPageSize,
  requestText,
} from './builders';
import { Script, Tone } from './project-input';
import {
  FulfillmentTypeRead,
  MainServiceRead,
  ProjectStatus,
  SERVICE_UNIT_TYPES,
  ServiceStatus,
} from './values';

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
