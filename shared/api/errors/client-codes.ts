// Client-side codes: failures on this side of the wire (no HTTP status), from the connection to the library's
// files, the secrets store and the bridge.
import { ALL, RETRY, client, type Def } from './define';

export const CLIENT_CODES = {
  NETWORK_UNREACHABLE: client(ALL, {
    title: 'Cannot reach the service',
    hint: 'Check your connection; your work is kept and downloaded files stay available offline.',
    message: 'The service could not be reached.',
  }),
  TIMEOUT: client(ALL, {
    title: 'The service did not answer in time',
    hint: RETRY,
    message: 'The request timed out.',
  }),
  UNEXPECTED_RESPONSE: client(ALL, {
    title: 'The service sent an answer Takedesk does not understand',
    hint: 'Try again; if it persists, the service may have changed; report it with the log.',
    message: 'The response did not match the expected shape.',
  }),
  VALIDATION_ERROR: client([], {
    title: 'Invalid input',
    hint: 'This is a bug in Takedesk if you see it.',
    message: 'The input was rejected before it was sent.',
  }),
  CANCELED: client(ALL, {
    title: 'Canceled',
    hint: 'The action was stopped; start it again when you want.',
    message: 'The operation was canceled.',
  }),
  // A download's own failures (downloads/errors.ts), shown on its row.
  NETWORK: client([], {
    title: 'The download lost its connection',
    hint: 'Takedesk retries by itself; use Resume once the service can be reached again.',
    message: 'The connection broke during the download.',
  }),
  HTTP: client([], {
    title: 'The service refused the file',
    hint: 'Resume to ask again; the link is looked up anew each time.',
    message: 'The file server answered with an error.',
  }),
  SIZE_MISMATCH: client([], {
    title: 'The file arrived incomplete',
    hint: 'Resume to download it again; nothing incomplete was put in the library.',
    message: 'The file did not have the size the service announced.',
  }),
  RESOLVE_FAILED: client([], {
    title: 'The file could not be looked up',
    hint: 'Resume when the service can be reached; the download then looks its link up again.',
    message: 'The deliverable or its file link could not be read from the service.',
  }),
  NO_SUCH_FORMAT: client([], {
    title: 'That format is not delivered',
    hint: 'Download one of the formats the deliverable offers.',
    message: 'The deliverable has no file in that format.',
  }),
  FORMAT_NOT_AVAILABLE: client([], {
    title: 'That format is not delivered',
    hint: 'Download one of the formats the deliverable offers.',
    message: 'The deliverable has no file in that format.',
  }),
  PATH_ESCAPE: client([], {
    title: 'Takedesk will not write there',
    hint: 'Something in the library folder (a link) leads outside it; remove it and download again.',
    message: 'The target path leads outside the library.',
  }),
  DISK_FULL: client([], {
    title: 'The disk is full',
    hint: 'Free some space or choose another download folder.',
    message: 'There is not enough disk space.',
  }),
  PERMISSION_DENIED: client([], {
    title: 'Takedesk may not write there',
    hint: 'Choose another folder or change its permissions.',
    message: 'Permission denied on the local file system.',
  }),
  NOT_FOUND_LOCAL: client([], {
    title: 'The file is gone',
    hint: 'It was moved or deleted; download it again.',
    message: 'The local file was not found.',
  }),
  // The library's own files (electron/main/library): what stands where an item's file should be.
  LINK_REFUSED: client([], {
    title: 'A link stands where the file was',
    hint: 'Takedesk reads nothing through links in the library: remove the link, then download the file again.',
    message: 'The library file is a link.',
  }),
  NOT_A_FILE: client([], {
    title: 'A folder stands where the file was',
    hint: 'Move the folder out of the library, then download the file again.',
    message: 'The library entry is not a file.',
  }),
  LIBRARY_NOT_WRITABLE: client([], {
    title: 'The library folder cannot be written to',
    hint: 'Nothing was changed. Check that the library folder (Settings → Library folder) is writable, then try again.',
    message: 'The library manifest could not be saved.',
  }),
  AUDIO_UNREADABLE: client([], {
    title: 'The file cannot be read as audio',
    hint: 'It may be damaged: remove it from the library and download it again.',
    message: 'The audio file could not be decoded.',
  }),
  CREATE_OUTCOME_UNKNOWN: client(['createProject'], {
    title: 'The answer to “create project” was lost',
    hint: 'Takedesk looks for the project by its title before offering to send it again, so nothing is ordered twice.',
    message: 'The project may or may not have been created.',
  }),
  // The live pages do not list a winner (docs/service.md#contest-winners): a service may refuse it in its own
  // words.
  WINNER_NOT_OFFERED: client(['selectWinner'], {
    title: 'The service did not accept a contest winner',
    hint: 'Approve the take you prefer instead.',
    message: 'It may not offer picking winners for this project.',
  }),
  // live-values.ts: a value the docs do not name never goes to a live account; main refuses it before sending.
  SANDBOX_ONLY_VALUE: client([], {
    title: 'That choice exists only in the sandbox',
    hint: 'Choose one of the values this account offers, then send it again.',
    message: 'The request carries a value the live service does not document.',
  }),
  SECRETS_UNAVAILABLE: client([], {
    title: 'This computer offers no safe place for the token',
    hint: 'Unlock or set up the OS keychain (Keychain, Credential Manager, Secret Service), then add the account again.',
    message: 'Encryption of secrets is not available.',
  }),
  SECRETS_UNREADABLE: client([], {
    title: 'Saved tokens cannot be read',
    hint: 'Sign in again; the old tokens file is left untouched for inspection.',
    message: 'The secrets store could not be read.',
  }),
  SESSION_EXPIRED: client([], {
    title: 'Your session expired',
    hint: 'Sign in again; Takedesk then retries what you were doing.',
    message: 'The service no longer accepts the saved token.',
  }),
  OTHER_ACCOUNT: client([], {
    title: 'That is another account',
    hint: 'Sign in with the account this connection belongs to, or add the other account as a new connection in Settings.',
    message: 'The sign-in belongs to another account than this connection’s.',
  }),
  PROFILE_NOT_FOUND: client([], {
    title: 'That account is not set up here',
    hint: 'Reload the profiles list.',
    message: 'The profile does not exist.',
  }),
  PROFILE_NOT_REMOVABLE: client([], {
    title: 'The Sandbox profile stays',
    hint: 'It lets you try everything without an account; switch to another profile instead.',
    message: 'The Sandbox profile cannot be removed.',
  }),
  INVALID_BASE_URL: client([], {
    title: 'That service address is not valid',
    hint: 'Use the full address, e.g. https://api.example.com.',
    message: 'The base URL is not a valid http(s) URL.',
  }),
  INVALID_PROFILE: client([], {
    title: 'That account could not be saved',
    hint: 'Check the name and the token.',
    message: 'The profile is not valid.',
  }),
  QUEUED_OFFLINE: client([], {
    title: 'Saved in the outbox',
    hint: 'Takedesk sends it as soon as the service can be reached again; see Outbox.',
    message:
      'The service cannot be reached: your decision is saved in the outbox and will be sent when it is back.',
  }),
  DECISION_NOT_SAVED: client([], {
    title: 'Your decision could not be saved',
    hint: 'Nothing was sent. Free some disk space (or close what holds the app data folder), then decide again: what you typed is kept.',
    message: 'The decision could not be written to the local database.',
  }),
  NOT_LOADED_OFFLINE: client([], {
    title: 'Not loaded on this computer yet',
    hint: 'It opens once the service can be reached again; what was loaded before still opens offline.',
    message: 'This was not loaded on this computer yet, and the service cannot be reached.',
  }),
  SANDBOX_UNAVAILABLE: client([], {
    title: 'The sandbox service is not running',
    hint: 'Takedesk restarts it by itself; use “Restart sandbox” in Settings to try now. Your library still works.',
    message: 'The sandbox service stopped; restarting…',
  }),
  MEDIA_NOT_ALLOWED: client([], {
    title: 'That media link is not from the service',
    hint: 'Reload the deliverable and try again.',
    message: 'Only media links the service returned can be played.',
  }),
  FORBIDDEN_SENDER: client([], {
    title: 'Blocked',
    hint: 'Only Takedesk’s own window may call the app.',
    message: 'This frame may not call Takedesk.',
  }),
  // Browser mode: a call reached the local bridge without the launch secret (a tab not opened from its URL).
  BROWSER_SESSION_REQUIRED: client([], {
    title: 'This tab is not signed in to Takedesk',
    hint: 'Open Takedesk with the URL printed in the terminal; it carries this launch’s secret.',
    message: 'The call did not carry the browser-mode session.',
  }),
  INTERNAL: client([], {
    title: 'Something went wrong in Takedesk',
    hint: 'Try again; if it persists, report it with the log.',
    message: 'An internal error occurred.',
  }),
} satisfies Record<string, Def>;
