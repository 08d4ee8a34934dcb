/** A service error the sandbox answers with; the HTTP layer turns it into the catalog's statuses for the operation. */
export class SandboxError extends Error {
  constructor(
    readonly type: string,
    message?: string,
  ) {
    super(message ?? type);
    this.name = 'SandboxError';
  }
  /** True when the message was given explicitly (otherwise the catalog's default message is used). */
  get hasMessage(): boolean {
    return this.message !== this.type;
  }
}
