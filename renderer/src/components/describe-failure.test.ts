import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../../shared/api/errors';
import { IpcError } from '../../../shared/ipc/api';
import { describeFailure, speaksApi } from './describe-failure';

const ipc = (type: string, message: string, status = 422) => new IpcError({ type, status, message });

describe('speaksApi', () => {
  it.each([
    ['A valid x-access-token is required.', true],
    ['genderAndAge is required.', true],
    ['title must be at most 100 characters.', true],
    ['script has 120 parts; at most 100 are taken.', true],
    ['Use ERROR_CODE_X to look it up.', true],
    ['The project could not be created.', false],
    ['Your session for Studio expired — sign in again.', false],
    ['The talent is away until December 5, 2026.', false],
  ])('%s -> %s', (message, expected) => {
    expect(speaksApi(message)).toBe(expected);
  });
});

describe('describeFailure', () => {
  it('a bad pasted token is named as such, with no header name', () => {
    const text = describeFailure(ipc('FORBIDDEN', 'A valid x-access-token is required.', 403), 'sign-in');
    expect(text.title).toBe('The service did not accept this access token');
    expect(`${text.title} ${text.detail} ${text.hint}`).not.toMatch(/x-access-token|forbidden/i);
    expect(describeFailure(ipc('TOKEN_NOT_VALID', 'Not valid token.', 401), 'sign-in').title).toBe(
      'The service did not accept this access token',
    );
  });

  it('elsewhere a refusal keeps its catalog words but drops the API message', () => {
    const text = describeFailure(ipc('FORBIDDEN', 'A valid x-access-token is required.', 403));
    expect(text).toEqual({
      type: 'FORBIDDEN',
      title: ERROR_CATALOG.FORBIDDEN.title,
      detail: '',
      hint: ERROR_CATALOG.FORBIDDEN.hint,
    });
  });

  it('a validation answer shows its title and hint once, not the API sentence', () => {
    const text = describeFailure(ipc('GENDER_AND_AGE_REQUIRED', 'genderAndAge is required.'));
    expect(text.title).toBe(ERROR_CATALOG.GENDER_AND_AGE_REQUIRED.title);
    expect(text.detail).toBe('');
  });

  it('a plain service message is kept as the detail', () => {
    expect(describeFailure(ipc('PROJECT_NOT_CREATED', 'The service is busy, try later.', 500)).detail).toBe(
      'The service is busy, try later.',
    );
  });

  it('a sign-in with a wrong password stays "wrong email or password"', () => {
    expect(describeFailure(ipc('USER_NOT_FOUND', 'User not found.', 401), 'sign-in').title).toBe(
      ERROR_CATALOG.USER_NOT_FOUND.title,
    );
  });
});
