import { z } from 'zod';
import { DELIVERY_TARGETS, type DeliveryTargetId } from '../audio/qa';

/** The delivery targets QA knows (shared/audio/qa.ts), as a schema. */
export const DeliveryTargetSchema = z.enum(
  Object.keys(DELIVERY_TARGETS) as [DeliveryTargetId, ...DeliveryTargetId[]],
);

/** The producer's preferences: the one shape main keeps, `settings.set` validates and the renderer edits. */
export const SettingsSchema = z.object({
  libraryDir: z.string().min(1).max(4000),
  /** Downloads at once. */
  concurrency: z.number().int().min(1).max(8),
  deliveryTarget: DeliveryTargetSchema,
  theme: z.enum(['system', 'light', 'dark']),
  notifications: z.boolean(),
});
export type Settings = z.infer<typeof SettingsSchema>;
