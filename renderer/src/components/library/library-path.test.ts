import { describe, expect, it } from 'vitest';
import { libraryPath } from './library-path';

describe('libraryPath', () => {
  it.each([
    [
      '/home/ada/Takedesk Library',
      'Spring (3f2a)/voice_over-1-v2.wav',
      '/home/ada/Takedesk Library/Spring (3f2a)/voice_over-1-v2.wav',
    ],
    ['/home/ada/Takedesk Library/', 'Spring (3f2a)/a.wav', '/home/ada/Takedesk Library/Spring (3f2a)/a.wav'],
    [
      'C:\\Users\\Ada\\Takedesk Library',
      'Spring (3f2a)/a.wav',
      'C:\\Users\\Ada\\Takedesk Library\\Spring (3f2a)\\a.wav',
    ],
    ['\\\\studio\\share\\Library\\', 'P (1)/b.mp3', '\\\\studio\\share\\Library\\P (1)\\b.mp3'],
  ])('%s + %s', (dir, relative, full) => {
    expect(libraryPath(dir, relative)).toBe(full);
  });
});
