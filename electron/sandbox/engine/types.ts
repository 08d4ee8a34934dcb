// The engine's inputs: what a media file is made from, a simulated creative, and the seed data, pricing and
// options the composition root (server.ts) hands the engine.
import type { CreateProjectBody } from '../../../shared/api';
import type { ValidateOptions } from '../../../shared/api/validate-project';
import type { SandboxState } from '../state';

/** What a media file is generated from (the media store's descriptor, opaque to the engine). */
export interface MediaDescriptor {
  kind: 'voice' | 'post' | 'sample' | 'track' | 'script-pdf';
  seed: string;
  format: 'wav' | 'mp3' | 'pdf';
  seconds?: number;
  words?: number;
  genderAndAge?: string;
  channels?: number;
  text?: string;
  title?: string;
  project?: string;
  /** Integrated loudness the audio is mastered to. */
  lufs?: number;
}

/** A simulated creative. */
export interface Talent {
  id: string;
  name: string;
}

/** Seed data and pricing the engine needs, supplied by the composition root (server.ts). */
export interface SandboxCatalog {
  /** Options for the shared create-project validator (active languages and gender-and-ages) per mainService. */
  validateOptions(mainService: unknown): ValidateOptions;
  /** Prices a validated project body: per-service price/units/unitType in service order, and the total. */
  priceProject(body: CreateProjectBody): {
    price: number;
    services: Array<{ price: number; units: number; unitType: string }>;
  };
  /** `count` different talents for a piece of work, deterministic for the seed. */
  talents(seed: string, count: number, wanted: { language?: string; genderAndAge?: string }): Talent[];
  /** Seeded absence of a talent (YYYY-MM-DD it ends), or null; the talent-away control route overrides it. */
  awayUntil?(talentId: string, now: Date): string | null;
}

export interface EngineDeps {
  state: () => SandboxState;
  catalog: SandboxCatalog;
  now: () => Date;
  /** 'manual': work arrives only on deliver(); a number: delay in ms before it arrives on its own. */
  delivery: 'manual' | number;
  /**
   * Live shapes (README, "Live shapes"): deliverables exist from the order on, `unassigned`, then `assigned`
   * at the first delivery, `reviewable` at the second; winners are refused. `mediaKey` names their files,
   * decided at the order.
   */
  liveShapes?: { mediaKey: (desc: MediaDescriptor) => string; pageSizeCap: number };
  /** Share of takes mastered out of spec (default OUT_OF_SPEC_RATE); 0 for tests that assert passing QA. */
  outOfSpecRate?: number;
}

/** Cancel reason when none is sent (docs/service.md#cancel-reasons). */
