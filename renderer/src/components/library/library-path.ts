/**
 * The full path of a library file: the library folder (settings) joined with the item's path inside it, which the
 * manifest keeps with `/` separators; a Windows folder gets its own separator throughout.
 */
export function libraryPath(libraryDir: string, relativePath: string): string {
  const windows = /^[A-Za-z]:\\|^\\\\/.test(libraryDir);
  const separator = windows ? '\\' : '/';
  const root = libraryDir.replace(/[\\/]+$/, '');
  const inside = relativePath.split('/').filter(Boolean).join(separator);
  return `${root}${separator}${inside}`;
}
