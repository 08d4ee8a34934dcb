/** "Order with this voice": what a sample carries to the new-project form, in the route query and in the form. */
import type { ProjectForm } from './form-model';

/** What "Order with this voice" carries from a sample to the new-project form. */
export interface SampleOrder {
  category: ProjectForm['mainService'];
  language: string;
  genderAndAge: string;
  /** The pro's name as the sample shows it. */
  pro: string;
  sampleId: string;
  /** The sample's booking price (for the length searched), shown beside the order's own quote; optional. */
  bookingPrice?: { value: number; currency: string };
}

/**
 * The request the service reads to assign the pro: the create body has no field for a pro
 * (docs/service.md#projects).
 */
export function sampleOrderRemarks(order: SampleOrder): string {
  return `Please book ${order.pro} for this project (the voice of sample ${order.sampleId}).`;
}

/** A booking with the sample's language and voice, and the pro named in the remarks for the creatives. */
export function prefillFromSample(form: ProjectForm, order: SampleOrder): void {
  form.mainService = order.category;
  form.fulfillmentType = 'booking';
  const voice = order.category === 'voice_over' ? form.voiceOver : form.adsVoiceOver;
  voice.language = order.language;
  voice.genderAndAge = order.genderAndAge;
  if (order.category === 'audio_ads') form.scriptwriting.language = order.language;
  form.remarks = sampleOrderRemarks(order);
}

/** The route query that opens the form for a sample (kept in the address, so a reload keeps the order). */
export function sampleOrderQuery(order: SampleOrder): Record<string, string> {
  return {
    sample: order.sampleId,
    pro: order.pro,
    category: order.category,
    language: order.language,
    voice: order.genderAndAge,
    ...(order.bookingPrice
      ? { price: String(order.bookingPrice.value), currency: order.bookingPrice.currency }
      : {}),
  };
}

/** Reads the query back; null unless every part is there and the category is one the form has. */
export function sampleOrderFromQuery(query: Record<string, unknown>): SampleOrder | null {
  const text = (key: string) => (typeof query[key] === 'string' ? (query[key] as string).trim() : '');
  const category = text('category');
  const order = {
    sampleId: text('sample'),
    pro: text('pro'),
    language: text('language'),
    genderAndAge: text('voice'),
  };
  if (category !== 'voice_over' && category !== 'audio_ads') return null;
  if (Object.values(order).some((value) => !value)) return null;
  const price = Number(text('price'));
  const currency = text('currency');
  const bookingPrice =
    text('price') && Number.isFinite(price) && price >= 0 && /^[A-Za-z]{3}$/u.test(currency)
      ? { bookingPrice: { value: price, currency: currency.toUpperCase() } }
      : {};
  return { category, ...order, ...bookingPrice };
}
