// The checks of the action bodies: reject, a deliverable's status, approve all, revision and cancel.
import { isCancelReasonCode } from '../reasons';
import type { ErrorCode } from '../errors';
import {
  createCollector,
  isMissing,
  isObject,
  type Collector,
  type Json,
  type ValidationIssue,
} from './collector';

function checkStatus(c: Collector, body: Json, allowed: readonly string[]): string | undefined {
  const status = body.status;
  if (typeof status === 'string' && allowed.includes(status)) return status;
  c.add('STATUS_NOT_ALLOWED', 'status', `status must be one of ${allowed.join(', ')}.`);
  return undefined;
}

function checkCode(
  c: Collector,
  body: Json,
  key: string,
  wrongType: ErrorCode,
  allowed?: (code: string) => boolean,
) {
  const value = c.optionalString(body, key, '', wrongType);
  if (value !== undefined && allowed && !allowed(value)) {
    c.add('REASON_CODE_NOT_ALLOWED', key, `${key} "${value}" is not one of the allowed values.`);
  }
  return value;
}

/** Options of the reject, revision and cancel checks. */
export interface ReasonOptions {
  /** Allowed reason codes; reject and revision check only when given, cancel defaults to CANCEL_REASONS. */
  allowedCodes?: ReadonlySet<string>;
  /** Reject: when given, newGenderAndAge outside it is GENDER_AND_AGE_NOT_ACTIVE. */
  activeGenderAndAges?: ReadonlySet<string>;
  /** Revision: allowed `reason` values (audio ads), checked only when given. */
  allowedReasons?: ReadonlySet<string>;
}

/** Validate the reject fields of a `PUT /deliverables/{id}` body (status is checked by the dispatcher). */
export function validateRejectBody(body: unknown, options: ReasonOptions = {}): ValidationIssue[] {
  const c = createCollector();
  if (!isObject(body)) {
    c.add('BODY_WRONG_TYPE', '');
    return c.issues;
  }
  const allowed = options.allowedCodes;
  const reason = c.optionalString(body, 'reason', '', 'REASON_WRONG_TYPE');
  const reasonCode = checkCode(
    c,
    body,
    'reasonCode',
    'REASON_CODE_WRONG_TYPE',
    allowed && ((v) => allowed.has(v)),
  );
  const wantsNew = reasonCode === 'genderAndAgeChange' || reason === 'genderAndAgeChange';
  const value = body.newGenderAndAge;
  if (wantsNew && (isMissing(value) || (typeof value === 'string' && value.trim() === ''))) {
    c.add('NEW_GENDER_AND_AGE_REQUIRED', 'newGenderAndAge');
  } else if (!isMissing(value) && typeof value !== 'string') {
    c.add('NEW_GENDER_AND_AGE_WRONG_TYPE', 'newGenderAndAge');
  } else if (typeof value === 'string') {
    c.active(value, options.activeGenderAndAges, 'GENDER_AND_AGE_NOT_ACTIVE', 'newGenderAndAge');
  }
  return c.issues;
}

/** Validate a `PUT /deliverables/{id}` body: status approved | rejected | winner, then the reject fields. */
export function validateDeliverableStatusBody(body: unknown, options: ReasonOptions = {}): ValidationIssue[] {
  if (!isObject(body)) return validateRejectBody(body, options);
  const c = createCollector();
  const status = checkStatus(c, body, ['approved', 'rejected', 'winner']);
  if (status === 'rejected') c.issues.push(...validateRejectBody(body, options));
  return c.issues;
}

/** Validate a `PUT /deliverables/project/{projectId}` body; `approve` is accepted as the spec's text says. */
export function validateApproveAllBody(body: unknown): ValidationIssue[] {
  const c = createCollector();
  if (!isObject(body)) c.add('BODY_WRONG_TYPE', '');
  else checkStatus(c, body, ['approved', 'approve']);
  return c.issues;
}

/** Validate a `POST /revisions/{deliverableId}` body. */
export function validateRevisionBody(body: unknown, options: ReasonOptions = {}): ValidationIssue[] {
  const c = createCollector();
  if (!isObject(body)) {
    c.add('BODY_WRONG_TYPE', '');
    return c.issues;
  }
  c.requiredString(body, 'instructions', '', 'INSTRUCTIONS_REQUIRED', 'INSTRUCTIONS_WRONG_TYPE');
  const reasons = options.allowedReasons;
  checkCode(c, body, 'reason', 'REASON_WRONG_TYPE', reasons && ((v) => reasons.has(v)));
  const codes = options.allowedCodes;
  checkCode(c, body, 'revisionCode', 'REVISION_CODE_WRONG_TYPE', codes && ((v) => codes.has(v)));
  c.optionalBoolean(body, 'checkTalent', '', 'CHECK_TALENT_WRONG_TYPE');
  return c.issues;
}

/** Validate a `PUT /projects/{id}` body; reasonCode must be a known `main` or `main.sub` code. */
export function validateCancelBody(body: unknown, options: ReasonOptions = {}): ValidationIssue[] {
  const c = createCollector();
  if (!isObject(body)) {
    c.add('BODY_WRONG_TYPE', '');
    return c.issues;
  }
  checkStatus(c, body, ['canceled']);
  c.optionalString(body, 'reason', '', 'REASON_WRONG_TYPE');
  const allowed = options.allowedCodes;
  checkCode(
    c,
    body,
    'reasonCode',
    'REASON_CODE_WRONG_TYPE',
    allowed ? (v) => allowed.has(v) : isCancelReasonCode,
  );
  return c.issues;
}
