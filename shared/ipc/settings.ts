import { z } from 'zod';
import { DELIVERY_TARGET_IDS } from '../audio/qa';
import { BULK_FORMATS } from './project-downloads';

/** The delivery targets QA knows (shared/audio/qa.ts), as a schema. */
export const DeliveryTargetSchema = z.enum(DELIVERY_TARGET_IDS);

/** The producer's preferences: the one shape main keeps, `settings.set` validates and the renderer edits. */
export const SettingsSchema = z.object({
  libraryDir: z.string().min(1).max(4000),
  /** Downloads at once. */
  concurrency: z.number().int().min(1).max(8),
  deliveryTarget: DeliveryTargetSchema,
  theme: z.enum(['system', 'light', 'dark']),
  notifications: z.boolean(),
  /** Formats "Download all" fetches, as the producer last chose them. */
  downloadFormats: z.array(z.enum(BULK_FORMATS)).min(1).max(BULK_FORMATS.length),
  /** Fetch every deliverable that becomes ready for review into the library as it arrives. */
  backgroundFetch: z.boolean(),
  /** After a decision on the review screen, open the next take that needs review (across projects). */
  advanceAfterDecision: z.boolean(),
});
export type Settings = z.infer<typeof SettingsSchema>;
