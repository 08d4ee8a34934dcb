import { describe, expect, it } from 'vitest';
import {
  CLIENT_ERROR_CODES,
  ERROR_CATALOG,
  ERROR_CODES,
  EXTENSION_ERROR_CODES,
  FACTS_ERROR_CODES,
  OPERATIONS,
  SPEC_ERROR_CODES,
  ServiceError,
  describeError,
  errorBody,
  errorsFor,
  isErrorCode,
  isServiceError,
  parseTalentAwayUntil,
  statusesFor,
  talentAwayMessage,
  type ErrorCode,
  type Operation,
} from './errors';
import { ErrorBody } from './schemas';

// Every code of the service's interface text (docs/service.md#error-codes, both tables), in its order.
const SPEC_CODES = [
  'PROJECT_NOT_CREATED',
  'TITLE_REQUIRED',
  'TITLE_TOO_LONG',
  'TITLE_WRONG_TYPE',
  'MAINSERVICE_REQUIRED',
  'MAINSERVICE_NOT_AUTHORIZED',
  'MAINSERVICE_WRONG_TYPE',
  'REMARKS_REQUIRED',
  'REMARKS_WRONG_TYPE',
  'FAKE_WRONG_TYPE',
  'TEST_WRONG_TYPE',
  'SUBCATEGORY_REQUIRED',
  'SUBCATEGORY_NOT_AUTHORIZED',
  'SUBCATEGORY_WRONG_TYPE',
  'LANGUAGE_REQUIRED',
  'LANGUAGE_WRONG_TYPE',
  'LANGUAGE_NOT_ACTIVE',
  'GENDER_AND_AGE_REQUIRED',
  'GENDER_AND_AGE_WRONG_TYPE',
  'GENDER_AND_AGE_NOT_ACTIVE',
  'SCRIPT_REQUIRED',
  'SCRIPT_WRONG_TYPE',
  'NOT_PROJECT_INFO',
  'PROJECT_NO_EXIST',
  'PROJECT_ALREADY_CANCELED',
  'ERROR_CANCELING_PROJECT',
  'NOT_PROJECTS_INFO',
  'ERROR_GETTING_SEARCH_RESULTS',
  'SEARCH_NOT_AVAILABLE',
  'SEARCH_NOT_RESULTS',
  'UNITTYPE_NOT_ALLOWED',
  'NOT_DELIVERABLES_INFO',
  'PROJECT_ID_REQUIRED',
  'ERROR_GETTING_DELIVERABLE',
  'DELIVERABLE_NO_EXIST',
  'ERROR_APPROVING_PROJECT_DELIVERABLES',
  'PROJECT_NOT_PENDING_APPROVAL',
  'PROJECT_ALREADY_APPROVED',
  'ERROR_APPROVING_DELIVERABLE',
  'DELIVERABLE_ALREADY_APPROVED',
  'DELIVERABLE_NOT_PENDING_REVIEW',
  'ERROR_REJECTING_DELIVERABLE',
  'DELIVERABLE_ALREADY_REJECTED',
  'ERROR_SELECTING_WINNER',
  'WINNER_ALREADY_SELECTED',
  'ERROR_GETTINT_VERSIONS',
  'ERROR_CREATING_REVISION',
  'DELIVERABLE_REJECTED',
  'DELIVERABLE_PENDING_REVISION',
  'TALENT_ON_VACATION',
  'FORBIDDEN',
  'ID_REQUIRED',
];

// The spec's heading / body pairs (Errors, "Other operations") and the 500s of failed operations.
const STATUS_TABLE: Array<[ErrorCode, Operation | undefined, number, number]> = [
  ['PROJECT_NO_EXIST', 'getProject', 404, 404],
  ['PROJECT_NO_EXIST', 'listDeliverables', 404, 404],
  ['PROJECT_NO_EXIST', 'approveAll', 404, 404],
  ['PROJECT_NO_EXIST', 'cancelProject', 400, 404],
  ['PROJECT_ALREADY_CANCELED', 'cancelProject', 400, 404],
  ['DELIVERABLE_NO_EXIST', 'getDeliverable', 400, 404],
  ['DELIVERABLE_NO_EXIST', 'createRevision', 400, 404],
  ['PROJECT_NOT_PENDING_APPROVAL', undefined, 400, 404],
  ['PROJECT_ALREADY_APPROVED', undefined, 400, 404],
  ['DELIVERABLE_ALREADY_APPROVED', undefined, 404, 404],
  ['DELIVERABLE_NOT_PENDING_REVIEW', 'selectWinner', 404, 404],
  ['DELIVERABLE_ALREADY_REJECTED', undefined, 400, 404],
  ['WINNER_ALREADY_SELECTED', 'selectWinner', 404, 400],
  ['DELIVERABLE_REJECTED', undefined, 400, 404],
  ['DELIVERABLE_PENDING_REVISION', undefined, 400, 404],
  ['TALENT_ON_VACATION', 'createRevision', 400, 400],
  ['FORBIDDEN', 'search', 403, 403],
  ['ID_REQUIRED', 'listVersions', 422, 422],
  ['PROJECT_NOT_CREATED', 'createProject', 500, 500],
  ['ERROR_GETTINT_VERSIONS', undefined, 500, 500],
  ['SEARCH_NOT_RESULTS', 'search', 422, 422],
  ['TITLE_TOO_LONG', 'createProject', 422, 422],
  ['USER_NOT_FOUND', 'signIn', 401, 401],
  ['USER_NOT_API_ENABLED', 'signIn', 401, 401],
  ['EMAIL_REQUIRED_NOT_VALID', 'signIn', 422, 422],
  ['ATTRIBUTE_NO_VALUES', 'getAttributeValues', 404, 404],
  ['TRACK_NO_EXIST', 'getTrack', 404, 404],
  ['INVALID_JSON', 'createProject', 400, 400],
  ['BODY_TOO_LARGE', 'createProject', 413, 413],
  ['NOT_FOUND', undefined, 404, 404],
  ['SERVICE_MISSING', 'createProject', 422, 422],
  ['NETWORK_UNREACHABLE', 'getProject', 0, 0],
];

describe('error catalog', () => {
  it('covers exactly the 52 codes named in the spec, in spec order', () => {
    expect(SPEC_CODES).toHaveLength(52);
    expect(new Set(SPEC_CODES).size).toBe(52);
    expect([...SPEC_ERROR_CODES]).toEqual(SPEC_CODES);
  });

  it('has the facts codes the live service documents', () => {
    expect([...FACTS_ERROR_CODES].sort()).toEqual(
      [
        'NOT_CATEGORIES_INFO',
        'NOT_CATEGORIES_ATTRIBUTES',
        'CATEGORY_NOT_AUTHORIZED',
        'NOT_ATTRIBUTES__VALUES',
        'ATTRIBUTE_NO_VALUES',
        'ATTRIBUTE_NOT_CATEGORY',
        'ATTRIBUTE_ID_REQUIRED',
        'PROJECT_NOT_QUOTED',
        'USER_NOT_FOUND',
        'USER_NOT_API_ENABLED',
        'TOKEN_NOT_VALID',
        'PASSWORD_REQUIRED',
        'EMAIL_REQUIRED',
        'EMAIL_REQUIRED_NOT_VALID',
        'TRACK_NO_EXIST',
        'INVALID_JSON',
        'BODY_TOO_LARGE',
        'NOT_FOUND',
      ].sort(),
    );
    expect(isErrorCode('UNAUTHORIZED')).toBe(false);
  });

  it('makes every extension code a 422 and every client code status 0', () => {
    expect(EXTENSION_ERROR_CODES.length).toBeGreaterThanOrEqual(30);
    for (const code of EXTENSION_ERROR_CODES) expect(statusesFor(code)).toEqual({ http: 422, body: 422 });
    expect([...CLIENT_ERROR_CODES].sort()).toEqual(
      [
        'NETWORK_UNREACHABLE',
        'TIMEOUT',
        'UNEXPECTED_RESPONSE',
        'VALIDATION_ERROR',
        'CANCELED',
        'DISK_FULL',
        'NETWORK',
        'HTTP',
        'SIZE_MISMATCH',
        'RESOLVE_FAILED',
        'NO_SUCH_FORMAT',
        'FORMAT_NOT_AVAILABLE',
        'PATH_ESCAPE',
        'PERMISSION_DENIED',
        'NOT_FOUND_LOCAL',
        'LINK_REFUSED',
        'NOT_A_FILE',
        'LIBRARY_NOT_WRITABLE',
        'AUDIO_UNREADABLE',
        'INTERNAL',
        'CREATE_OUTCOME_UNKNOWN',
        'SECRETS_UNAVAILABLE',
        'SECRETS_UNREADABLE',
        'PROFILE_NOT_FOUND',
        'PROFILE_NOT_REMOVABLE',
        'SESSION_EXPIRED',
        'OTHER_ACCOUNT',
        'INVALID_BASE_URL',
        'INVALID_PROFILE',
        'QUEUED_OFFLINE',
        'DECISION_NOT_SAVED',
        'NOT_LOADED_OFFLINE',
        'SANDBOX_UNAVAILABLE',
        'MEDIA_NOT_ALLOWED',
        'FORBIDDEN_SENDER',
        'BROWSER_SESSION_REQUIRED',
        'WINNER_NOT_OFFERED',
        'SANDBOX_ONLY_VALUE',
      ].sort(),
    );
    for (const code of CLIENT_ERROR_CODES) expect(statusesFor(code)).toEqual({ http: 0, body: 0 });
  });

  it('gives every entry its own type, a title, a hint, a message and known operations', () => {
    for (const code of ERROR_CODES) {
      const entry = ERROR_CATALOG[code];
      expect(entry.type).toBe(code);
      expect(entry.title.length, code).toBeGreaterThan(3);
      expect(entry.hint.length, code).toBeGreaterThan(3);
      expect(entry.message.length, code).toBeGreaterThan(3);
      for (const op of entry.operations) expect(OPERATIONS).toContain(op);
    }
  });

  it.each(STATUS_TABLE)('%s on %s is %i / %i', (code, operation, http, body) => {
    expect(statusesFor(code, operation)).toEqual({ http, body });
    expect(errorBody(code, operation).status).toBe(body);
  });

  it('lists each spec code under the operations the spec names', () => {
    expect(ERROR_CATALOG.DELIVERABLE_NO_EXIST.operations).toEqual(
      expect.arrayContaining([
        'approveDeliverable',
        'rejectDeliverable',
        'getDeliverable',
        'listVersions',
        'createRevision',
        'selectWinner',
      ]),
    );
    expect(errorsFor('approveAll')).toEqual(
      expect.arrayContaining([
        'ERROR_APPROVING_PROJECT_DELIVERABLES',
        'PROJECT_NO_EXIST',
        'PROJECT_NOT_PENDING_APPROVAL',
        'PROJECT_ALREADY_APPROVED',
        'FORBIDDEN',
        'ID_REQUIRED',
      ]),
    );
    expect(errorsFor('search')).toEqual(
      expect.arrayContaining([
        'ERROR_GETTING_SEARCH_RESULTS',
        'SEARCH_NOT_AVAILABLE',
        'SEARCH_NOT_RESULTS',
        'UNITTYPE_NOT_ALLOWED',
      ]),
    );
    expect(errorsFor('createRevision')).toContain('TALENT_ON_VACATION');
    expect(errorsFor('signIn')).not.toContain('FORBIDDEN');
  });

  it('builds error bodies that match the ErrorBody schema, with default or given message', () => {
    const body = errorBody('WINNER_ALREADY_SELECTED', 'selectWinner');
    expect(ErrorBody.parse(body)).toEqual({
      status: 400,
      type: 'WINNER_ALREADY_SELECTED',
      message: ERROR_CATALOG.WINNER_ALREADY_SELECTED.message,
    });
    expect(errorBody('FORBIDDEN', undefined, 'nope').message).toBe('nope');
  });
});

describe('talent away message', () => {
  it('round-trips the sandbox format', () => {
    const message = talentAwayMessage('2026-12-05');
    expect(message).toBe('The talent is on vacation until 2026-12-05.');
    expect(parseTalentAwayUntil(message)).toBe('2026-12-05');
    expect(parseTalentAwayUntil(talentAwayMessage('2026-12-05T09:30:00'))).toBe('2026-12-05T09:30:00');
  });

  it.each([
    ['Pro is away; back 2027-01-15 (approx).', '2027-01-15'],
    ['Talent unavailable until 2026-03-01 10:00, try later', '2026-03-01T10:00'],
    ['vacation ends 2026-07-04T00:00:00Z', '2026-07-04T00:00:00Z'],
  ])('finds the date in free text: %s', (message, expected) => {
    expect(parseTalentAwayUntil(message)).toBe(expected);
  });

  it.each(['The talent is on vacation.', 'id 12026-12-05', 'until 2026-13-05', 'ref 2026-12-05-77'])(
    'finds no date in %s',
    (message) => {
      expect(parseTalentAwayUntil(message)).toBeUndefined();
    },
  );
});

describe('describeError', () => {
  it('shows the return date of a talent on vacation', () => {
    const text = describeError({ type: 'TALENT_ON_VACATION', message: talentAwayMessage('2026-12-05') });
    expect(text.title).toBe(ERROR_CATALOG.TALENT_ON_VACATION.title);
    expect(text.detail).toContain('December 5, 2026');
    expect(text.hint).toBe(ERROR_CATALOG.TALENT_ON_VACATION.hint);
  });

  it('falls back to the service message when no date is given', () => {
    expect(describeError({ type: 'TALENT_ON_VACATION', message: 'Away for now' }).detail).toBe(
      'Away for now',
    );
  });

  it('uses the catalog message when the service sent none', () => {
    expect(describeError({ type: 'FORBIDDEN', message: '' }).detail).toBe(ERROR_CATALOG.FORBIDDEN.message);
  });

  it('explains an unknown code without throwing', () => {
    const text = describeError({ type: 'BRAND_NEW_CODE', message: 'Something' });
    expect(text.title).toContain('BRAND_NEW_CODE');
    expect(text.detail).toBe('Something');
  });
});

describe('ServiceError', () => {
  it('takes statuses from the catalog for the operation', () => {
    const error = new ServiceError('PROJECT_NO_EXIST', undefined, { operation: 'cancelProject' });
    expect(error).toBeInstanceOf(Error);
    expect(isServiceError(error)).toBe(true);
    expect(error.name).toBe('ServiceError');
    expect([error.status, error.bodyStatus]).toEqual([400, 404]);
    expect(error.message).toBe(ERROR_CATALOG.PROJECT_NO_EXIST.message);
    expect(error.toBody()).toEqual({ status: 404, type: 'PROJECT_NO_EXIST', message: error.message });
  });

  it('keeps what the service actually sent, including unknown codes', () => {
    const error = ServiceError.fromBody(
      { status: 404, type: 'SOMETHING_NEW', message: 'x' },
      400,
      'getProject',
    );
    expect([error.type, error.status, error.bodyStatus, error.operation]).toEqual([
      'SOMETHING_NEW',
      400,
      404,
      'getProject',
    ]);
    expect(isServiceError(new Error('plain'))).toBe(false);
    expect(isServiceError({ type: 'FORBIDDEN', status: 403 })).toBe(false);
  });
});
