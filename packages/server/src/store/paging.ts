/**
 * The lists' pages (docs/api.md#lists-and-pagination): PAGE_SIZE rows each, `page` from 1; a
 * list asked for without a page is every row.
 */
export const PAGE_SIZE = 10

/** Page `page` of a query's rows, oldest first as the query orders them; every row without `page`. */
export function paged<Q extends { limit(n: number): Q; offset(n: number): Q }>(query: Q, page: number | undefined): Q {
  return page === undefined ? query : query.limit(PAGE_SIZE).offset((page - 1) * PAGE_SIZE)
}

/** Page `page` of a list already in memory; the whole list without `page`. */
export function pagedList<T>(items: T[], page: number | undefined): T[] {
  return page === undefined ? items : items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)
}
