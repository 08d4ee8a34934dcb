import { describe, expect, it } from 'vitest';
import { formatsOf, projectDownloads } from './project-downloads';

const audio = { wav: 'https://x/a.wav', mp3: 'https://x/a.mp3' };
const script = { pdf: 'https://x/s.pdf', content: 'Hello' };
const deliverables = [
  { id: 'vo-old', status: 'rejected', urls: audio },
  { id: 'vo-new', status: 'approved', urls: audio },
  { id: 'mix', status: 'reviewable', urls: audio },
  { id: 'script', status: 'approved', urls: script },
  { id: 'pending', status: 'assigned', urls: {} },
] as const;

const files = (selection?: Parameters<typeof projectDownloads>[1]) =>
  projectDownloads(deliverables, selection).map((f) => `${f.deliverableId}.${f.format}`);

describe('projectDownloads (what "Download all" queues)', () => {
  it('by default: every bulk format of every take but rejected ones, no script text', () => {
    expect(files()).toEqual(['vo-new.wav', 'vo-new.mp3', 'mix.wav', 'mix.mp3', 'script.pdf']);
  });

  it('only the formats chosen', () => {
    expect(files({ formats: ['mp3'] })).toEqual(['vo-new.mp3', 'mix.mp3']);
    expect(files({ formats: ['wav', 'pdf'] })).toEqual(['vo-new.wav', 'mix.wav', 'script.pdf']);
  });

  it('rejected (superseded) takes only when asked for', () => {
    expect(files({ formats: ['wav'], includeRejected: true })).toEqual([
      'vo-old.wav',
      'vo-new.wav',
      'mix.wav',
    ]);
    expect(files({ formats: ['wav'], includeRejected: false })).toEqual(['vo-new.wav', 'mix.wav']);
  });

  it('a contest entry not picked is rejected, so skipped too; an undelivered one has no file', () => {
    expect(projectDownloads([{ id: 'loser', status: 'rejected', urls: audio }])).toEqual([]);
    expect(projectDownloads([{ id: 'pending', status: 'assigned', urls: {} }])).toEqual([]);
  });

  it('script text is fetched only when asked for by name', () => {
    expect(files({ formats: ['txt'] })).toEqual(['script.txt']);
    expect(formatsOf({ urls: script })).toEqual(['pdf', 'txt']);
  });
});
