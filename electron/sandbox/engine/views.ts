// The answer shapes of projects and deliverables: plain reads of the records, the same for every route.
import type { DeliverableRecord, ProjectRecord, VersionRecord } from '../state';
import type { Json } from './store';

export function projectView(p: ProjectRecord): Json {
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

export function summary(d: DeliverableRecord): Json {
  return { id: d.id, serviceSubCategory: d.serviceSubCategory, name: d.name, status: d.status };
}

export function urls(v: VersionRecord | undefined, base: string): Json {
  if (!v) return {};
  const out: Json = {};
  for (const [format, ref] of Object.entries(v.media))
    if (ref) out[format] = `${base}/media/${ref.key}.${ref.ext}`;
  if (v.content !== undefined) out.content = v.content;
  return out;
}
