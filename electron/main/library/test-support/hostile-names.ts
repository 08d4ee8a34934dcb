/**
 * Names a service might send for a project, service or deliverable that a careless path builder would turn into an
 * escape, a reserved device name, a hidden file or a name too long for the disk: each must stay one folder and one
 * file inside the library.
 */
export const HOSTILE_NAMES: readonly string[] = [
  '../../etc/passwd',
  'a/b\\c',
  'CON',
  '\u0000',
  'x'.repeat(300),
  '🎙️'.repeat(60),
  '🎧'.repeat(100),
  '\u202Egnp.exe',
  '\u202Etxt.exe',
  '..',
  '/abs',
  'C:\\x',
];
