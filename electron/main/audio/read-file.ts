import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * Opens an audio file for reading without following a link in the file's own place (ELOOP instead): the library
 * checks an item's file before analysis, and this closes the gap between that check and the read, so a link put
 * there in between is never read through. (No O_NOFOLLOW on Windows: plain read there.)
 */
export function openAudioFile(path: string): Promise<FileHandle> {
  return open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
}

/** The file's bytes in chunks of `chunk` bytes, read through `openAudioFile`. */
export async function* audioChunks(path: string, chunk: number): AsyncGenerator<Buffer> {
  const handle = await openAudioFile(path);
  try {
    for await (const part of handle.createReadStream({ highWaterMark: chunk, autoClose: false }))
      yield part as Buffer;
  } finally {
    await handle.close();
  }
}
