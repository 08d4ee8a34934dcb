/** Why an audio file could not be read; `code` lets callers map it to a user message. */
export class AudioDecodeError extends Error {
  override name = 'AudioDecodeError';
  constructor(
    readonly code: 'not-wav' | 'not-mp3' | 'unsupported' | 'corrupt' | 'truncated' | 'unknown-format',
    message: string,
  ) {
    super(message);
  }
}
