import {
  contract,
  isChannel,
  type Channel,
  type IpcErrorBody,
  type ParsedInput,
  type Result,
} from '../../../../shared/ipc';
import type { Handler, HandlerContext, Handlers } from '../../kernel/handler-types';
import { inputTooLarge, MAX_INPUT_BYTES, MAX_INPUT_DEPTH } from './input-size';

// The handler map's types are the contract every feature implements: they live in kernel/ so features need not
// import app/.
export type { Handler, HandlerContext, Handlers, HandlersIn } from '../../kernel/handler-types';

export interface Router {
  /** Never throws and never rejects: every outcome is an envelope. */
  invoke(channel: unknown, input: unknown, ctx: HandlerContext): Promise<Result<unknown>>;
}

export interface RouterDeps {
  handlers: Handlers;
  /** Unexpected failures are logged here with their stack; the renderer only sees a generic message. */
  onInternalError?: (channel: string, error: unknown) => void;
  /** Largest input (about its JSON size) looked at; larger ones answer VALIDATION_ERROR unread. Default 2 MiB. */
  maxInputBytes?: number;
}

/** Validates each input against the contract, runs the handler, answers a result envelope. */
export function createRouter({
  handlers,
  onInternalError,
  maxInputBytes = MAX_INPUT_BYTES,
}: RouterDeps): Router {
  return {
    async invoke(channel, input, ctx) {
      if (!isChannel(channel)) {
        return fail({
          type: 'VALIDATION_ERROR',
          status: 0,
          message: `Unknown channel: ${describe(channel)}`,
        });
      }
      // Bounded before validation: a huge or deeply nested input never reaches the schema or a handler.
      const tooLarge = inputTooLarge(input, maxInputBytes, MAX_INPUT_DEPTH);
      if (tooLarge) {
        return fail({
          type: 'VALIDATION_ERROR',
          status: 0,
          message:
            tooLarge === 'size'
              ? `Input for ${channel} is too large (more than ${Math.round(maxInputBytes / 1024)} KiB).`
              : `Input for ${channel} is nested too deeply.`,
        });
      }
      const parsed = contract[channel].input.safeParse(input);
      if (!parsed.success) {
        return fail({
          type: 'VALIDATION_ERROR',
          status: 0,
          message: `Invalid input for ${channel}.`,
          issues: parsed.error.issues.slice(0, 20).map((issue) => ({
            path: issue.path.join('.'),
            code: issue.code,
            message: issue.message,
          })),
        });
      }
      try {
        const handler = handlers[channel] as Handler<Channel>;
        const value = await handler(parsed.data as ParsedInput<Channel>, ctx);
        return { ok: true, value: value ?? null };
      } catch (error) {
        const body = toErrorBody(error);
        if (body.type === 'INTERNAL') onInternalError?.(channel, error);
        return fail(body);
      }
    },
  };
}

function fail(error: IpcErrorBody): Result<never> {
  return { ok: false, error };
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : typeof value;
}

/**
 * Maps anything thrown by a service to the envelope's error. Errors that carry a catalog `type`
 * (service errors, client errors, download errors) pass intact; anything else is an internal fault.
 */
export function toErrorBody(error: unknown): IpcErrorBody {
  if (error && typeof error === 'object' && 'type' in error && typeof error.type === 'string') {
    const e = error as {
      type: string;
      status?: unknown;
      bodyStatus?: unknown;
      message?: unknown;
      issues?: unknown;
    };
    const body: IpcErrorBody = {
      type: e.type,
      status: typeof e.status === 'number' ? e.status : 0,
      message: typeof e.message === 'string' && e.message ? e.message : e.type,
    };
    if (typeof e.bodyStatus === 'number' && e.bodyStatus !== body.status) body.bodyStatus = e.bodyStatus;
    if (Array.isArray(e.issues)) body.issues = e.issues as IpcErrorBody['issues'];
    return body;
  }
  return {
    type: 'INTERNAL',
    status: 0,
    message: 'Something went wrong inside Takedesk. Details are in the log.',
  };
}
