// Deliverables and their versions: download links, the status-changing bodies and answers, and the version list.
import { z } from 'zod';
import { DeliverableStatus } from './values';

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
