import { execFileSync } from 'node:child_process';

/** Whether a command-line tool (ffmpeg, ffprobe, sox) is installed: tests that need one skip without it. */
export function has(tool: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`]);
    return true;
  } catch {
    return false;
  }
}

/** What ffmpeg complains of while decoding the whole file: '' when it decodes cleanly. */
export function ffmpegErrors(path: string): string {
  return execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-f', 'null', '-'], { stdio: 'pipe' }).toString();
}

/** ffprobe's reading of `entries` (e.g. 'format=duration'), as bare comma-separated values. */
export function ffprobe(path: string, entries: string): string {
  return execFileSync('ffprobe', ['-v', 'error', '-show_entries', entries, '-of', 'csv=p=0', path])
    .toString()
    .trim();
}
