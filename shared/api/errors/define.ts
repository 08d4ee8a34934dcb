// The vocabulary the catalog's data files write their entries in: one builder per source (each fixing what that
// source always has, e.g. 422 for extension codes and no status for client codes), the operation groups and the
// hints several entries share.
import { OPERATIONS, type ErrorEntry, type ErrorSource, type Operation, type StatusPair } from './types';

type Status = number | readonly [http: number, body: number];
interface Text {
  title: string;
  hint: string;
  message: string;
}
export type Def = Omit<ErrorEntry, 'type'>;

function def(
  source: ErrorSource,
  status: Status,
  operations: readonly Operation[],
  text: Text,
  overrides?: Partial<Record<Operation, Status>>,
): Def {
  const pair = (s: Status): StatusPair =>
    typeof s === 'number' ? { http: s, body: s } : { http: s[0], body: s[1] };
  const { http, body } = pair(status);
  return {
    source,
    http,
    body,
    operations,
    ...text,
    ...(overrides
      ? {
          overrides: Object.fromEntries(
            Object.entries(overrides).map(([op, s]) => [op, pair(s as Status)]),
          ) as Partial<Record<Operation, StatusPair>>,
        }
      : {}),
  };
}
export const spec = (
  status: Status,
  ops: readonly Operation[],
  text: Text,
  overrides?: Partial<Record<Operation, Status>>,
) => def('spec', status, ops, text, overrides);
export const facts = (status: Status, ops: readonly Operation[], text: Text) =>
  def('facts', status, ops, text);
export const ext = (ops: readonly Operation[], text: Text) => def('extension', 422, ops, text);
export const client = (ops: readonly Operation[], text: Text) => def('client', 0, ops, text);

// Operation groups. Quote takes the same mainService/services as create (docs/service.md#quote), so the
// service-level validation codes belong to both; title, flags and remarks only exist on create.
export const CREATE: readonly Operation[] = ['createProject'];
export const CREATE_QUOTE: readonly Operation[] = ['createProject', 'quote'];
export const ALL: readonly Operation[] = OPERATIONS;
export const AUTHENTICATED: readonly Operation[] = OPERATIONS.filter((op) => op !== 'signIn');
export const WITH_BODY: readonly Operation[] = [
  'createProject',
  'cancelProject',
  'approveAll',
  'approveDeliverable',
  'rejectDeliverable',
  'selectWinner',
  'createRevision',
  'quote',
  'signIn',
];
export const DELIVERABLE_BY_ID: readonly Operation[] = [
  'getDeliverable',
  'approveDeliverable',
  'rejectDeliverable',
  'selectWinner',
  'listVersions',
  'createRevision',
];
export const RETRY = 'Try again in a moment; if it keeps failing, the service may be down.';
export const FIX_FORM = 'Correct the field in the project form and submit again.';
