/**
 * Paging `GET /projects` (and lists like it) as the live service documents it: `total` counts every project of the
 * account, not those matching `titleQuery`/`category`, and no maximum `pageSize` is stated, so a service may keep
 * to a smaller page than asked. A listing therefore reads pages until a short or empty one and counts what arrived.
 */

/**
 * Whether a page of `rows` may be followed by more. A page is full when it holds what was asked, or as many as the
 * first page of the same listing when that one held fewer (the service's own page size): a first page shorter than
 * asked is either that size or the whole list, and the next page (empty then) tells which.
 */
export function pageMayContinue(rows: number, asked: number, firstPageRows: number): boolean {
  return rows > 0 && rows >= Math.min(asked, firstPageRows);
}
