// A revision request (`POST /revisions/{deliverableId}`) and its answer.
import { z } from 'zod';
import { DeliverableSummary } from './deliverables';

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
