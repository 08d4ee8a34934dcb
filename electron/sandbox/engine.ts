import { randomUUID } from 'node:crypto';
import { CreateProjectBody, isoNoZone, talentAwayMessage } from '../../shared/api';
import {
  DEFAULT_REVISION_CODE,
  REJECT_REASONS,
  REVISION_REASONS,
  revisionCodesFor,
} from '../../shared/api/reasons';
import {
  normalizeScript,
  scriptParts,
  validateApproveAllBody,
  validateCancelBody,
  validateCreateProject,
  validateQuote,
  validateRejectBody,
  validateRevisionBody,
  type ScriptInput,
  type ValidateOptions,
  type ValidationIssue,
} from '../../shared/api/validate-project';
import { purposeOfServices } from '../../shared/audio/qa';
import { takeLoudness } from './media/mastering';
import { SandboxError } from './sandbox-error';
import type {
  DeliverableRecord,
  MediaRef,
  ProjectRecord,
  SandboxState,
  ServiceRecord,
  VersionRecord,
  WorkItem,
} from './state';

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
const DEFAULT_CANCEL_REASON = 'no_longer_needed';
/** Number of entries a contest project receives per voice service (sandbox choice). */
export const CONTEST_ENTRIES = 3;
/** Deliverable statuses that need nothing more from the client. */
const SETTLED = new Set(['approved', 'winner', 'rejected']);

type Json = Record<string, unknown>;

/** Throws the first validation issue as the service error it names. */
function check(issues: ValidationIssue[]): void {
  const first = issues[0];
  if (first)
    throw new SandboxError(first.code, first.path ? `${first.path}: ${first.message}` : first.message);
}

const REJECT_CODES: ReadonlySet<string> = new Set(REJECT_REASONS.map((r) => r.code));
const REVISION_REASON_SET: ReadonlySet<string> = new Set(REVISION_REASONS.map((r) => r.code));

/** The simulated service: every state transition of the spec, synchronous so each operation is atomic. */
export function createEngine(deps: EngineDeps) {
  const { catalog, now } = deps;
  const st = () => deps.state();

  function dueAt(): number | null {
    return deps.delivery === 'manual' ? null : now().getTime() + deps.delivery;
  }

  function mediaRef(desc: MediaDescriptor, key: (desc: MediaDescriptor) => string): MediaRef {
    return { key: key(desc), ext: desc.format };
  }

  function findProject(id: string, userId: string): ProjectRecord {
    const projects = st().projects;
    const project = ownValue(projects, id);
    if (!project) throw new SandboxError('PROJECT_NO_EXIST', `Project ${id} does not exist.`);
    if (project.ownerId !== userId) throw new SandboxError('FORBIDDEN');
    return project;
  }

  function findDeliverable(id: string, userId: string): { d: DeliverableRecord; project: ProjectRecord } {
    const all = st().deliverables;
    const d = ownValue(all, id);
    const project = d ? ownValue(st().projects, d.projectId) : undefined;
    if (!d || !project) throw new SandboxError('DELIVERABLE_NO_EXIST', `Deliverable ${id} does not exist.`);
    if (project.ownerId !== userId) throw new SandboxError('FORBIDDEN');
    return { d, project };
  }

  function deliverablesOf(projectId: string): DeliverableRecord[] {
    return Object.values(st().deliverables).filter((d) => d.projectId === projectId);
  }

  /** Project status from its deliverables: completed once every deliverable is settled and nothing is owed. */
  function settle(project: ProjectRecord): void {
    if (project.status === 'canceled') return;
    const ds = deliverablesOf(project.id);
    const owed = st().work.some((w) => w.projectId === project.id && !w.failed);
    const done =
      !owed &&
      ds.length > 0 &&
      ds.every((d) => SETTLED.has(d.status)) &&
      ds.some((d) => d.status === 'approved' || d.status === 'winner');
    // Live shapes: a completed project stays completed while an approved take is revised (the live service allows
    // revisions after approval and its status list has no way back).
    const stays = deps.liveShapes !== undefined && project.status === 'completed';
    project.status = done || stays ? 'completed' : 'paid';
    for (const s of project.services) s.status = project.status;
  }

  function validated(body: unknown, forQuote = false): CreateProjectBody {
    const options = {
      ...catalog.validateOptions(typeof body === 'object' && body ? (body as Json).mainService : undefined),
      // The sandbox's own bounds (PROJECT_LIMITS): its 422, which the form on a live account never applies.
      accountKind: 'sandbox' as const,
    };
    check(forQuote ? validateQuote(body, options) : validateCreateProject(body, options));
    const parsed = CreateProjectBody.safeParse(forQuote ? { ...(body as Json), title: 'Quote' } : body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new SandboxError(
        'SERVICE_WRONG_TYPE',
        `${issue?.path.join('.') ?? 'body'}: ${issue?.message ?? ''}`,
      );
    }
    return parsed.data;
  }

  function projectView(p: ProjectRecord): Json {
    return {
      id: p.id,
      title: p.title,
      mainService: p.mainService,
      fulfillmentType: p.fulfillmentType,
      created: p.created,
      status: p.status,
      price: p.price,
      fake: p.fake,
      test: p.test,
      remarks: p.remarks,
      services: p.services,
    };
  }

  /** Sets a deliverable's status and records when (the versions endpoint shows it outside live shapes). */
  function setStatus(d: DeliverableRecord, status: string): void {
    d.status = status;
    d.statusChanged = isoNoZone(now());
  }

  function summary(d: DeliverableRecord): Json {
    return { id: d.id, serviceSubCategory: d.serviceSubCategory, name: d.name, status: d.status };
  }

  function urls(v: VersionRecord | undefined, base: string): Json {
    if (!v) return {};
    const out: Json = {};
    for (const [format, ref] of Object.entries(v.media))
      if (ref) out[format] = `${base}/media/${ref.key}.${ref.ext}`;
    if (v.content !== undefined) out.content = v.content;
    return out;
  }

  // ------------------------------------------------------------------------------------------
  // Simulated creatives

  /** Adds a version to `d`; the media keys are made first, so a throw leaves `d` as it was. */
  function newVersion(
    d: DeliverableRecord,
    instructions: string | null,
    key: (m: MediaDescriptor) => string,
  ) {
    const n = d.versions.length + 1;
    const seed = `${d.id}:v${n}`;
    const version: VersionRecord = { created: isoNoZone(now()), instructions, media: {} };
    if (d.serviceSubCategory === 'scriptwriting') {
      const text = instructions ? `${d.text ?? ''}\n\n(Revised: ${instructions})` : (d.text ?? '');
      version.content = text;
      const project = ownValue(st().projects, d.projectId)?.title;
      version.media.pdf = mediaRef(
        { kind: 'script-pdf', seed, format: 'pdf', text, title: d.name, project },
        key,
      );
    } else {
      const services = ownValue(st().projects, d.projectId)?.services ?? [];
      const { lufs } = takeLoudness(purposeOfServices(services), seed, deps.outOfSpecRate);
      const base: MediaDescriptor =
        d.serviceSubCategory === 'post-production'
          ? {
              kind: 'post',
              seed,
              format: 'wav',
              seconds: d.seconds ?? 30,
              genderAndAge: d.genderAndAge,
              lufs,
            }
          : d.seconds !== undefined
            ? { kind: 'voice', seed, format: 'wav', seconds: d.seconds, genderAndAge: d.genderAndAge, lufs }
            : {
                kind: 'voice',
                seed,
                format: 'wav',
                words: wordCount(d.text ?? ''),
                genderAndAge: d.genderAndAge,
                lufs,
              };
      version.media.wav = mediaRef(base, key);
      version.media.mp3 = mediaRef({ ...base, format: 'mp3' }, key);
    }
    d.versions.push(version);
  }

  /**
   * A new deliverable with its first version, added to `staged` (not to the state): a work item's
   * deliverables enter the state together once all of them are made, so a failure leaves none behind.
   */
  function addDeliverable(
    project: ProjectRecord,
    service: ServiceRecord,
    fields: Pick<DeliverableRecord, 'name' | 'talent'> & Partial<DeliverableRecord>,
    key: (m: MediaDescriptor) => string,
    staged: DeliverableRecord[],
  ): DeliverableRecord {
    const d: DeliverableRecord = {
      id: randomUUID(),
      projectId: project.id,
      serviceId: service.id,
      serviceSubCategory: service.subCategory,
      status: 'reviewable',
      created: isoNoZone(now()),
      versions: [],
      ...fields,
    };
    newVersion(d, null, key);
    staged.push(d);
    return d;
  }

  function deliverInitial(
    project: ProjectRecord,
    key: (m: MediaDescriptor) => string,
    staged: DeliverableRecord[],
  ): void {
    checkDeliverable(project);
    const contest = project.fulfillmentType === 'contest';
    const adSeconds = Number(
      project.services.find((s) => s.subCategory === 'scriptwriting')?.seconds ??
        project.services.find((s) => s.subCategory === 'post-production')?.seconds ??
        30,
    );
    const adScript = writeAdScript(project, adSeconds);
    for (const service of project.services) {
      const language = typeof service.language === 'string' ? service.language : undefined;
      const genderAndAge = typeof service.genderAndAge === 'string' ? service.genderAndAge : undefined;
      const wanted = { language, genderAndAge };
      if (service.subCategory === 'voice_over') {
        const inAd = project.mainService === 'audio_ads';
        // An ad reads the script writer's text, or the producer's own when they ordered no script writing.
        const given = service.script ? scriptParts(normalizeScript(service.script as ScriptInput)) : [];
        const parts = inAd
          ? [{ key: 'ad', text: given.length ? given.map((p) => p.text).join('\n') : adScript }]
          : scriptParts(normalizeScript((service.script ?? '') as ScriptInput));
        const seconds = inAd ? adSeconds : undefined;
        // A contest has one entry per talent reading the whole script; otherwise one talent reads each part.
        let takes: Array<Pick<DeliverableRecord, 'name' | 'talent' | 'text'> & { entry?: number }>;
        if (contest) {
          const text = parts.map((p) => p.text).join('\n');
          takes = catalog
            .talents(`${project.id}:${service.id}`, CONTEST_ENTRIES, wanted)
            .map((talent, i) => ({ name: `Entry ${i + 1} (${talent.name})`, talent, entry: i + 1, text }));
        } else {
          const [talent] = catalog.talents(`${project.id}:${service.id}`, 1, wanted);
          takes = parts.map((part, i) => ({
            name: inAd ? 'Voice over' : String(i + 1),
            talent: talent!,
            text: part.text,
          }));
        }
        for (const take of takes)
          addDeliverable(project, service, { ...take, seconds, language, genderAndAge }, key, staged);
      } else {
        const [talent] = catalog.talents(`${project.id}:${service.id}`, 1, wanted);
        const isScript = service.subCategory === 'scriptwriting';
        addDeliverable(
          project,
          service,
          {
            name: isScript ? 'Script' : 'Final mix',
            talent: talent!,
            text: isScript ? adScript : undefined,
            seconds: Number(service.seconds ?? adSeconds),
            language:
              language ?? (project.services.find((s) => typeof s.language === 'string')?.language as string),
            genderAndAge:
              genderAndAge ?? (project.services.find((s) => s.genderAndAge)?.genderAndAge as string),
          },
          key,
          staged,
        );
      }
    }
  }

  /**
   * Whether a stored project can still be delivered: the create-project checks (and their bounds) on
   * the record, which a hand-edited or older state file may break. Throws what is wrong.
   */
  function checkDeliverable(project: ProjectRecord): void {
    const { title, mainService, fulfillmentType, fake, test, remarks, services } = project;
    const body = { title, mainService, fulfillmentType, fake, test, remarks, services };
    const issue = validateCreateProject(body, { accountKind: 'sandbox' })[0];
    if (issue) throw new Error(`${issue.code} at ${issue.path || 'project'}: ${issue.message}`);
  }

  /** Delivers one work item whole, or throws and changes nothing. */
  function deliverItem(item: WorkItem, key: (m: MediaDescriptor) => string): void {
    const project = ownValue(st().projects, item.projectId);
    if (!project || project.status === 'canceled') return;
    const staged: DeliverableRecord[] = [];
    if (item.kind === 'initial') {
      // Live shapes: the deliverables exist since the order; a pro takes them (the work is owed again), then
      // delivers them with their files.
      const waiting = deliverablesOf(project.id).filter(
        (d) => d.status === 'unassigned' || d.status === 'assigned',
      );
      if (deps.liveShapes && waiting.some((d) => d.status === 'unassigned')) {
        for (const d of waiting) d.status = 'assigned';
        st().work.push({ ...item, id: randomUUID(), dueAt: dueAt() });
      } else if (deps.liveShapes && waiting.length > 0) {
        for (const d of waiting) {
          d.status = 'reviewable';
          if (d.versions[0]) d.versions[0].created = isoNoZone(now());
        }
      } else deliverInitial(project, key, staged);
    } else if (item.kind === 'revision' && item.deliverableId) {
      const d = ownValue(st().deliverables, item.deliverableId);
      if (d?.status === 'revisionRequested' && d.pendingRevision) {
        newVersion(d, d.pendingRevision.instructions, key);
        const version = d.versions.at(-1);
        if (version && d.pendingRevision.requested) version.requested = d.pendingRevision.requested;
        setStatus(d, 'reviewable');
        delete d.pendingRevision;
      }
    } else if (item.kind === 'replacement' && item.deliverableId) {
      const old = ownValue(st().deliverables, item.deliverableId);
      const service = project.services.find((s) => s.id === old?.serviceId);
      if (old && service) {
        const genderAndAge = old.rejection?.newGenderAndAge ?? old.genderAndAge;
        const taken = new Set(deliverablesOf(project.id).map((d) => d.talent.id));
        const candidates = catalog.talents(`${old.id}:replacement`, taken.size + 1, {
          language: old.language,
          genderAndAge,
        });
        const talent = candidates.find((t) => !taken.has(t.id)) ?? candidates[0] ?? old.talent;
        const name = old.entry !== undefined ? `Entry ${old.entry} (${talent.name})` : old.name;
        addDeliverable(
          project,
          service,
          {
            name,
            talent,
            entry: old.entry,
            text: old.text,
            seconds: old.seconds,
            language: old.language,
            genderAndAge,
          },
          key,
          staged,
        );
      }
    }
    const deliverables = st().deliverables;
    for (const d of staged) deliverables[d.id] = d;
  }

  return {
    summary,
    projectView,

    /** Validation and price of a `POST /quote` body. */
    quote(body: unknown) {
      const input = validated(body, true);
      return { input, priced: catalog.priceProject(input) };
    },

    createProject(userId: string, body: unknown): ProjectRecord {
      const input = validated(body);
      const priced = catalog.priceProject(input);
      const state = st();
      const project: ProjectRecord = {
        id: randomUUID(),
        ownerId: userId,
        title: input.title,
        mainService: input.mainService,
        fulfillmentType: input.fulfillmentType,
        created: isoNoZone(now()),
        status: 'paid',
        price: priced.price,
        fake: input.fake,
        test: input.test,
        remarks: input.remarks,
        services: input.services.map((service, i) => {
          const p = priced.services[i] ?? { price: 0, units: 0, unitType: 'words' };
          const extra: Json =
            service.subCategory === 'post-production'
              ? {
                  language:
                    input.services.find((s): s is typeof s & { language: string } => 'language' in s)
                      ?.language ?? 'eng-us',
                  backgroundMusic: 'audioads-music-library',
                }
              : {};
          return {
            ...service,
            ...extra,
            id: randomUUID(),
            price: p.price,
            status: 'paid',
            units: p.units,
            unitType: p.unitType,
          } as ServiceRecord;
        }),
        seq: ++state.seq,
      };
      state.projects[project.id] = project;
      state.work.push({ id: randomUUID(), projectId: project.id, kind: 'initial', dueAt: dueAt() });
      if (deps.liveShapes) {
        // As on the live service: the deliverables are there at once, without files until delivered.
        const staged: DeliverableRecord[] = [];
        deliverInitial(project, deps.liveShapes.mediaKey, staged);
        for (const d of staged) {
          d.status = 'unassigned';
          state.deliverables[d.id] = d;
        }
      }
      return project;
    },

    getProject(userId: string, id: string): ProjectRecord {
      return findProject(id, userId);
    },

    listProjects(
      userId: string,
      q: { page: number; pageSize: number; titleQuery: string; category: string },
    ) {
      const needle = q.titleQuery.toLowerCase();
      const owned = Object.values(st().projects).filter((p) => p.ownerId === userId);
      const mine = owned
        .filter((p) => !needle || p.title.toLowerCase().includes(needle))
        .filter((p) => !q.category || p.mainService === q.category)
        .sort((a, b) => b.seq - a.seq);
      // Live shapes: pages keep to the service's own maximum, and `total` counts every project of the account,
      // not those matching the filters (as the live docs define it).
      const pageSize = deps.liveShapes ? Math.min(q.pageSize, deps.liveShapes.pageSizeCap) : q.pageSize;
      const start = (q.page - 1) * pageSize;
      const total = deps.liveShapes ? owned.length : mine.length;
      return { page: q.page, total, projects: mine.slice(start, start + pageSize) };
    },

    cancelProject(userId: string, id: string, body: Json): Json {
      const project = findProject(id, userId);
      check(validateCancelBody(body));
      const reasonCode = typeof body.reasonCode === 'string' ? body.reasonCode : DEFAULT_CANCEL_REASON;
      if (project.status === 'canceled') throw new SandboxError('PROJECT_ALREADY_CANCELED');
      project.status = 'canceled';
      for (const s of project.services) s.status = 'canceled';
      project.cancel = { reason: typeof body.reason === 'string' ? body.reason : '', reasonCode };
      const state = st();
      state.work = state.work.filter((w) => w.projectId !== project.id);
      for (const d of deliverablesOf(project.id)) {
        if (!SETTLED.has(d.status)) {
          setStatus(d, 'rejected');
          delete d.pendingRevision;
        }
      }
      const { services: _services, remarks: _remarks, ...fields } = projectView(project);
      return { ...fields, reason: project.cancel.reason, reasonCode: project.cancel.reasonCode };
    },

    listDeliverables(userId: string, projectId: string, base: string): Json[] {
      findProject(projectId, userId);
      return deliverablesOf(projectId).map((d) => ({ ...summary(d), urls: urls(d.versions.at(-1), base) }));
    },

    getDeliverable(userId: string, id: string, base: string): Json {
      const { d } = findDeliverable(id, userId);
      return { ...summary(d), urls: urls(d.versions.at(-1), base) };
    },

    listVersions(userId: string, id: string, base: string): Json {
      const { d } = findDeliverable(id, userId);
      // The spec shows no decision dates; the sandbox knows them and says them, except in live shapes.
      const dated = !deps.liveShapes;
      return {
        ...summary(d),
        ...(dated && d.statusChanged ? { statusChanged: d.statusChanged } : {}),
        versions: d.versions.map((v) => ({
          created: v.created,
          instructions: v.instructions,
          ...(dated && v.requested ? { requested: v.requested } : {}),
          urls: urls(v, base),
        })),
      };
    },

    approveDeliverable(userId: string, id: string): Json {
      const { d, project } = findDeliverable(id, userId);
      if (d.status === 'approved') throw new SandboxError('DELIVERABLE_ALREADY_APPROVED');
      if (d.status !== 'reviewable') throw new SandboxError('DELIVERABLE_NOT_PENDING_REVIEW');
      setStatus(d, 'approved');
      settle(project);
      return summary(d);
    },

    rejectDeliverable(userId: string, id: string, body: Json): Json {
      const { d, project } = findDeliverable(id, userId);
      check(
        validateRejectBody(body, {
          allowedCodes: REJECT_CODES,
          activeGenderAndAges: catalog.validateOptions(project.mainService).activeGenderAndAges,
        }),
      );
      const reasonCode = typeof body.reasonCode === 'string' ? body.reasonCode : null;
      const newGenderAndAge = typeof body.newGenderAndAge === 'string' ? body.newGenderAndAge : null;
      if (d.status === 'rejected') throw new SandboxError('DELIVERABLE_ALREADY_REJECTED');
      setStatus(d, 'rejected');
      delete d.pendingRevision;
      const state = st();
      state.work = state.work.filter((w) => !(w.kind === 'revision' && w.deliverableId === d.id));
      d.rejection = {
        reason: typeof body.reason === 'string' ? body.reason : null,
        reasonCode,
        newGenderAndAge,
      };
      if (project.status !== 'canceled') {
        state.work.push({
          id: randomUUID(),
          projectId: project.id,
          kind: 'replacement',
          deliverableId: d.id,
          dueAt: dueAt(),
        });
      }
      settle(project);
      return { ...summary(d), ...d.rejection };
    },

    selectWinner(userId: string, id: string): Json {
      const { d, project } = findDeliverable(id, userId);
      // The live pages list no winner (docs/service.md#contest-winners): under live shapes the service
      // refuses it.
      if (deps.liveShapes)
        throw new SandboxError('STATUS_NOT_ALLOWED', 'status must be approved or rejected.');
      if (project.fulfillmentType !== 'contest') {
        throw new SandboxError('PROJECT_NOT_CONTEST', 'A winner can only be selected in a contest project.');
      }
      if (project.winnerId) throw new SandboxError('WINNER_ALREADY_SELECTED');
      if (d.status !== 'reviewable') throw new SandboxError('DELIVERABLE_NOT_PENDING_REVIEW');
      setStatus(d, 'winner');
      project.winnerId = d.id;
      // The other entries of the same service lose: they are rejected and not replaced.
      for (const other of deliverablesOf(project.id)) {
        if (other.id !== d.id && other.serviceId === d.serviceId && other.entry !== undefined) {
          if (other.status === 'reviewable' || other.status === 'revisionRequested') {
            setStatus(other, 'rejected');
            delete other.pendingRevision;
          }
        }
      }
      const state = st();
      state.work = state.work.filter(
        (w) =>
          !(
            w.projectId === project.id &&
            w.deliverableId !== undefined &&
            ownValue(state.deliverables, w.deliverableId)?.serviceId === d.serviceId &&
            w.deliverableId !== d.id
          ),
      );
      settle(project);
      return summary(d);
    },

    createRevision(userId: string, id: string, body: Json): Json {
      const { d, project } = findDeliverable(id, userId);
      check(
        validateRevisionBody(body, {
          allowedCodes: new Set(revisionCodesFor(d.serviceSubCategory).map((r) => r.code)),
          allowedReasons: project.mainService === 'audio_ads' ? REVISION_REASON_SET : undefined,
        }),
      );
      const instructions = body.instructions as string;
      const checkTalent = body.checkTalent === true;
      if (d.status === 'rejected' || project.status === 'canceled')
        throw new SandboxError('DELIVERABLE_REJECTED');
      if (d.status === 'revisionRequested') throw new SandboxError('DELIVERABLE_PENDING_REVISION');
      if (checkTalent) {
        const until =
          ownValue(st().talentAway, d.talent.id) ?? catalog.awayUntil?.(d.talent.id, now()) ?? undefined;
        if (until && Date.parse(until) > now().getTime()) {
          throw new SandboxError('TALENT_ON_VACATION', talentAwayMessage(until));
        }
      }
      const revision = {
        instructions,
        reason: typeof body.reason === 'string' ? body.reason : null,
        // The live service applies its paid default when no code is sent (docs/service.md#revision-codes).
        revisionCode: typeof body.revisionCode === 'string' ? body.revisionCode : DEFAULT_REVISION_CODE,
        checkTalent,
      };
      setStatus(d, 'revisionRequested');
      d.pendingRevision = { ...revision, requested: isoNoZone(now()) };
      st().work.push({
        id: randomUUID(),
        projectId: project.id,
        kind: 'revision',
        deliverableId: d.id,
        dueAt: dueAt(),
      });
      settle(project);
      return { ...summary(d), ...revision };
    },

    approveAll(userId: string, projectId: string, body: Json): Json[] {
      const project = findProject(projectId, userId);
      check(validateApproveAllBody(body));
      const reviewable = deliverablesOf(project.id).filter((d) => d.status === 'reviewable');
      if (reviewable.length === 0) {
        if (project.status === 'completed') throw new SandboxError('PROJECT_ALREADY_APPROVED');
        throw new SandboxError('PROJECT_NOT_PENDING_APPROVAL');
      }
      for (const d of reviewable) setStatus(d, 'approved');
      settle(project);
      return reviewable.map(summary);
    },

    /** Sets the talent of a deliverable away until the given date (control route). */
    setTalentAway(userId: string, id: string, until: string): Json {
      const { d } = findDeliverable(id, userId);
      st().talentAway[d.talent.id] = until;
      return { deliverableId: d.id, talentId: d.talent.id, until };
    },

    /**
     * Delivers owed work: everything (optionally of one project) when `all`, else what is due by now.
     * Each work item is delivered whole or not at all: one that throws is marked failed (kept in the
     * state with its reason, logged with its project, never retried) and the others go on. Resolves
     * with the number of items delivered.
     */
    deliver(options: { all: boolean; projectId?: string }, key: (m: MediaDescriptor) => string): number {
      const state = st();
      const t = now().getTime();
      const ready = state.work.filter(
        (w) =>
          !w.failed &&
          (options.projectId === undefined || w.projectId === options.projectId) &&
          (options.all || (w.dueAt !== null && w.dueAt <= t)),
      );
      if (ready.length === 0) return 0;
      const done = new Set<string>();
      const touched = new Set<string>();
      for (const item of ready) {
        touched.add(item.projectId);
        try {
          deliverItem(item, key);
          done.add(item.id);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          item.failed = { at: isoNoZone(now()), reason };
          console.error(
            `[sandbox] work item ${item.id} (${item.kind}) of project ${item.projectId} failed and is not retried: ${reason}`,
          );
        }
      }
      state.work = state.work.filter((w) => !done.has(w.id));
      for (const id of touched) {
        const project = ownValue(state.projects, id);
        try {
          if (project) settle(project);
        } catch (error) {
          console.error(`[sandbox] project ${id}: status not updated after delivery`, error);
        }
      }
      return done.size;
    },

    /** Next time (epoch ms) some work is due, or null. */
    nextDue(): number | null {
      let next: number | null = null;
      for (const w of st().work) {
        if (!w.failed && w.dueAt !== null && (next === null || w.dueAt < next)) next = w.dueAt;
      }
      return next;
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;

/** An own property of a record keyed by ids (never one of Object.prototype's: `constructor`, `__proto__`...). */
function ownValue<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** The script a simulated writer delivers: ~2.3 words per second of ad, built from the brief's fields. */
function writeAdScript(project: ProjectRecord, seconds: number): string {
  const sw = project.services.find((s) => s.subCategory === 'scriptwriting');
  const topic = typeof sw?.topic === 'string' && sw.topic ? sw.topic : project.title;
  const audience =
    typeof sw?.targetAudience === 'string' && sw.targetAudience ? sw.targetAudience : 'everyone';
  const sentences = [
    `Looking for ${topic}?`,
    `Made for ${audience}, it fits the way you live.`,
    `Try it today and hear the difference for yourself.`,
    `Simple to start, easy to love, and ready when you are.`,
    `${project.title}: find out more now.`,
  ];
  const target = Math.max(8, Math.round(seconds * 2.3));
  const words: string[] = [];
  for (let i = 0; words.length < target; i++) words.push(...sentences[i % sentences.length]!.split(' '));
  return words.slice(0, target).join(' ');
}
