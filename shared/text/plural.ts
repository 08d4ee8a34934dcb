/** `1 project`, `2 projects`, `1,000 projects`: a count with its noun in the right number, for every UI string. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : pluralForm}`;
}

/** A count of the service's units, which it names in the plural (`words`, `seconds`, `characters`). */
export function unitsText(count: number, unitType: string): string {
  return plural(count, unitType.replace(/s$/, ''), unitType);
}
