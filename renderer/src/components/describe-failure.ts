import { isIpcError } from '../../../shared/ipc/api';

/** What the UI shows for a failure. */
export interface FailureText {
  type: string;
  title: string;
  detail: string;
  hint: string;
}

/** Turns anything a store caught into display text. */
export function describeFailure(error: unknown): FailureText {
  if (isIpcError(error)) {
    return { type: error.type, title: humanize(error.type), detail: error.message, hint: '' };
  }
  if (error instanceof Error)
    return { type: 'UNKNOWN', title: 'Something went wrong', detail: error.message, hint: '' };
  return { type: 'UNKNOWN', title: 'Something went wrong', detail: String(error), hint: '' };
}

function humanize(code: string): string {
  const words = code.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
