import { describe, expect, it } from 'vitest';
import { runQuietly } from './quiet-build';

// A stand-in for the bundler: many lines on stdout, a word on stderr, then the exit code asked for.
const noisy = (code: number) => [
  '-e',
  `for (let i = 1; i <= 75; i++) console.log('chunk ' + i); console.error('warning: slow plugin'); process.exit(${code});`,
];

describe('runQuietly (npm start builds without printing the bundler’s output)', () => {
  it('keeps a successful build’s output off the terminal and hands it back', () => {
    const run = runQuietly(process.execPath, noisy(0), { cwd: process.cwd() });
    expect(run.status).toBe(0);
    expect(run.output.split('\n').filter(Boolean)).toHaveLength(76);
    expect(run.output).toMatch(/^chunk 1\n[\s\S]*chunk 75\nwarning: slow plugin\n$/);
  });

  it('passes a failed build’s exit code on with everything it said', () => {
    const run = runQuietly(process.execPath, noisy(3), { cwd: process.cwd() });
    expect(run.status).toBe(3);
    expect(run.output).toContain('warning: slow plugin');
  });

  it('reports a command that cannot be run as a failure with the reason', () => {
    const run = runQuietly('/nonexistent/electron-vite', [], { cwd: process.cwd() });
    expect(run.status).toBe(1);
    expect(run.output).toMatch(/ENOENT/);
  });
});
