import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from './server';
import { audioAdsBody, call, startSandbox, type Loose } from './test-support/test-helpers';

// The sandbox accepts exactly the live revision codes of the deliverable's service
// (docs/service.md#revision-codes), and records the service's paid default when none is sent.

let sb: Sandbox;
let byService: Map<string, string>;

beforeAll(async () => {
  sb = await startSandbox({ delivery: 'manual' });
  const req = (method: string, path: string, body?: unknown) =>
    call(sb, method, path, { token: sb.tokens.full, body });
  const created = await req('POST', '/projects', audioAdsBody());
  expect(created.status).toBe(200);
  await req('POST', '/_sandbox/deliver', { projectId: created.body.id });
  const list = await req('GET', `/deliverables/project/${created.body.id}`);
  byService = new Map((list.body as Loose[]).map((d) => [d.serviceSubCategory as string, d.id as string]));
  expect([...byService.keys()].sort()).toEqual(['post-production', 'scriptwriting', 'voice_over']);
});
afterAll(() => sb.close());

const revise = (service: string, body: Record<string, unknown>) =>
  call(sb, 'POST', `/revisions/${byService.get(service)}`, { token: sb.tokens.full, body });

it.each([
  ['voice_over', 'pacing'],
  ['voice_over', 'other'],
  ['voice_over', 'spelling_or_grammar'],
  ['scriptwriting', 'incorrect_pro'],
  ['post-production', 'tone_of_voice'],
])('%s refuses %s with REASON_CODE_NOT_ALLOWED', async (service, code) => {
  const r = await revise(service, { instructions: 'x', revisionCode: code });
  expect(r.body.type, JSON.stringify(r.body)).toBe('REASON_CODE_NOT_ALLOWED');
  expect(r.status).toBe(422);
});

it.each([
  ['voice_over', 'incorrect_pro'],
  ['scriptwriting', 'spelling_or_grammar'],
  ['post-production', 'change_sfx'],
])('%s accepts its own code %s', async (service, code) => {
  const r = await revise(service, { instructions: 'x', revisionCode: code, reason: 'both' });
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ status: 'revisionRequested', revisionCode: code });
});

it('records change_specifications (the paid default) when no code is sent', async () => {
  const other = await call(sb, 'POST', '/projects', { token: sb.tokens.full, body: audioAdsBody() });
  await call(sb, 'POST', '/_sandbox/deliver', { token: sb.tokens.full, body: { projectId: other.body.id } });
  const list = await call(sb, 'GET', `/deliverables/project/${other.body.id}`, { token: sb.tokens.full });
  const id = (list.body as Loose[])[0].id as string;
  const r = await call(sb, 'POST', `/revisions/${id}`, {
    token: sb.tokens.full,
    body: { instructions: 'x', reason: 'both' },
  });
  expect(r.status).toBe(200);
  expect(r.body.revisionCode).toBe('change_specifications');
});
