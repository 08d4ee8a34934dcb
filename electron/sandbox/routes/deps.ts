// What the HTTP layer is given: the engine, the state, the reference data and media it serves, and the hooks of
// the composition root (server.ts); and the hono environment every route runs in.
import type { HttpBindings } from '@hono/node-server';
import type { Operation, SearchQuery } from '../../../shared/api';
import type { Engine, MediaDescriptor } from '../engine';
import type { Faults } from '../faults';
import type { SandboxState } from '../state';

/** A ready media file. */
export interface MediaFile {
  path: string;
  size: number;
  etag: string;
  contentType: string;
}

/** Reference data and media the HTTP layer serves (built from electron/sandbox/data and media). */
export interface SandboxServices {
  categories(): unknown[];
  /** Attributes of a category; throws SandboxError (CATEGORY_NOT_AUTHORIZED). */
  attributes(categoryId: string): unknown[];
  /** Values of an attribute; throws SandboxError (ATTRIBUTE_NO_VALUES, ATTRIBUTE_NOT_CATEGORY...). */
  attributeValues(categoryId: string, attributeId: string): unknown[];
  /** Tracks with their preview descriptors. */
  tracks(query: {
    typeId?: string;
    subtypeId?: string;
  }): Array<{ track: Record<string, unknown>; wav: MediaDescriptor; mp3: MediaDescriptor }>;
  /** Search; throws SandboxError for the spec's search errors. Samples carry a descriptor for their mp3. */
  search(query: SearchQuery): {
    page: number;
    totalPages: number;
    total: number;
    samples: Array<{ sample: Record<string, unknown>; mp3: MediaDescriptor }>;
  };
  media: {
    key(desc: MediaDescriptor): string;
    describe(key: string): MediaDescriptor | undefined;
    ensure(desc: MediaDescriptor): Promise<MediaFile>;
    /** The bytes of a music track's mp3 as it is made the first time; undefined when `ensure` serves it whole. */
    streamFirst?(desc: MediaDescriptor): Promise<ReadableStream<Uint8Array> | undefined>;
  };
}

export interface AppDeps {
  engine: Engine;
  state: () => SandboxState;
  /** Makes every change so far durable. */
  commit: () => Promise<void>;
  faults: Faults;
  services: SandboxServices;
  baseUrl: () => string;
  /** Delivers owed work now (all projects, or one). */
  deliverNow: (projectId?: string) => Promise<number>;
  reset: () => Promise<void>;
  openapi: () => unknown;
  /**
   * Tokens issued by sign-in expire after this long (live tokens do, docs/service.md#tokens-expire); default:
   * never.
   */
  tokenLifetimeMs?: number;
  now?: () => number;
  /** Reshapes successful API answers (live shapes); absent: the spec's shapes. */
  shape?: (operation: Operation | undefined, result: unknown) => unknown;
}
export type Json = Record<string, unknown>;
export type Env = { Bindings: HttpBindings };
