/** What the producer reads for a service id: the catalogue's codes (`voice_over`) never reach a screen or a toast. */
const LABELS: Record<string, string> = {
  voice_over: 'Voice over',
  audio_ads: 'Audio ads',
  scriptwriting: 'Script writing',
  'post-production': 'Post production',
  speedy: 'Speedy',
  booking: 'Booking',
  contest: 'Contest',
};

/** Human label for a service id; unknown ids are spaced and capitalised. */
export function serviceLabel(id: string): string {
  const known = LABELS[id];
  if (known) return known;
  const spaced = id.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
}
