/** The bodies the form sends (`POST /projects`, `POST /quote`) and the checks only this form can make. */
import { partKey, sectionOrder, sectionPath, type ProjectForm, type Section } from './form-model';

function optionalText(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed ? trimmed : undefined;
}

function urls(list: string[]): string[] | undefined {
  const kept = list.map((u) => u.trim()).filter(Boolean);
  return kept.length ? kept : undefined;
}

/** Drops undefined fields so the body only carries what the producer set. */
function compact<T extends Record<string, unknown>>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

function serviceBody(form: ProjectForm, section: Section): Record<string, unknown> {
  switch (section) {
    case 'voiceOver': {
      const vo = form.voiceOver;
      return {
        subCategory: 'voice_over',
        language: vo.language,
        genderAndAge: vo.genderAndAge,
        purpose: vo.purpose || undefined,
        script: vo.script.filter((p) => p.text.trim()).map((p, i) => ({ [partKey(i)]: p.text })),
      };
    }
    case 'scriptwriting': {
      const sw = form.scriptwriting;
      return compact({
        subCategory: 'scriptwriting',
        seconds: sw.seconds ?? undefined,
        language: sw.language,
        voicePerspective: sw.voicePerspective || undefined,
        topic: sw.topic,
        purpose: sw.purpose,
        targetAudience: sw.targetAudience,
        keywords: optionalText(sw.keywords),
        remarks: optionalText(sw.remarks),
        tone: { ...sw.tone },
        assetsFiles: urls(sw.assetsFiles),
      });
    }
    case 'adsVoiceOver': {
      const vo = form.adsVoiceOver;
      return compact({
        subCategory: 'voice_over',
        language: vo.language,
        genderAndAge: vo.genderAndAge,
        purpose: vo.purpose || undefined,
        remarks: optionalText(vo.remarks),
        // Written by the script writer when one is ordered; otherwise the producer's own, line breaks and all.
        script: form.withScriptwriting || !vo.adScript.trim() ? undefined : vo.adScript.trim(),
        assetsFiles: urls(vo.assetsFiles),
      });
    }
    case 'postProduction': {
      const pp = form.postProduction;
      // trackId, ownMusicFile and proSelectsMusic are one choice: only the chosen one is sent.
      const music =
        pp.music === 'library'
          ? { trackId: pp.trackId ?? undefined }
          : pp.music === 'own'
            ? { ownMusicFile: pp.ownMusicFile.trim(), ownMusicFileRights: pp.ownMusicFileRights }
            : { proSelectsMusic: true };
      return compact({
        subCategory: 'post-production',
        seconds: pp.seconds ?? undefined,
        remarks: optionalText(pp.remarks),
        ...music,
        assetsFiles: urls(pp.assetsFiles),
      });
    }
  }
}

/** The `POST /projects` body for the form. Remarks always go out ("" when none): the service may require them. */
export function buildBody(form: ProjectForm): Record<string, unknown> {
  return {
    title: form.title.trim(),
    mainService: form.mainService,
    fulfillmentType: form.fulfillmentType,
    remarks: form.remarks.trim(),
    fake: form.fake,
    test: form.test,
    services: sectionOrder(form).map((section) => compact(serviceBody(form, section))),
  };
}

/** The `POST /quote` body: category, fulfilment and services only. */
export function buildQuoteBody(form: ProjectForm): Record<string, unknown> {
  const { mainService, fulfillmentType, services } = buildBody(form);
  return { mainService, fulfillmentType, services };
}

/** A problem tied to a field path. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** Checks the shared validator cannot know: choices that only exist in this form. */
export function formIssues(form: ProjectForm): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (form.mainService !== 'audio_ads') return issues;
  // Without script writing nobody else writes what the voice reads.
  if (!form.withScriptwriting && !form.adsVoiceOver.adScript.trim()) {
    issues.push({
      path: sectionPath(form, 'adsVoiceOver', 'script'),
      message: 'Script is required without script writing: write what the voice reads.',
    });
  }
  const index = sectionOrder(form).indexOf('postProduction');
  const pp = form.postProduction;
  if (pp.music === 'library' && pp.trackId == null) {
    issues.push({ path: `services[${index}].trackId`, message: 'Pick a track.' });
  }
  if (pp.music === 'own' && !pp.ownMusicFileRights) {
    issues.push({
      path: `services[${index}].ownMusicFileRights`,
      message: 'Confirm you hold the rights to this music.',
    });
  }
  return issues;
}
