// The body of every error answer.
import { z } from 'zod';

/** Every error response: `{ status, type, message }`. */
export const ErrorBody = z.looseObject({
  status: z.number(),
  type: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
