import { describeError } from '../../../shared/api/errors';
import { isIpcError } from '../../../shared/ipc/api';

/** What the UI shows for a failure, with its code kept for tests and support. */
export interface FailureText {
  type: string;
  title: string;
  detail: string;
  hint: string;
}

/** Turns anything a store caught into display text via the shared error catalog. */
export function describeFailure(error: unknown): FailureText {
  if (isIpcError(error))
    return { type: error.type, ...describeError({ type: error.type, message: error.message }) };
  const message = error instanceof Error ? error.message : String(error);
  return { type: 'UNKNOWN', title: 'Something went wrong', detail: message, hint: '' };
}
