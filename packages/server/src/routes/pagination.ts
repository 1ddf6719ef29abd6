/**
 * docs/api.md#lists-and-pagination: pagination only when `isPagination` is true (the string on query
 * strings, a boolean on legacy bodies); pages hold 10; `pageNumber` is 1-based and page 0
 * reads as page 1. Undefined means "everything".
 */
export function pageOf(
  isPagination: string | boolean | undefined,
  pageNumber: string | number | undefined,
): number | undefined {
  if (isPagination !== true && isPagination !== 'true') return undefined
  const n = Number(pageNumber ?? 1)
  return Number.isSafeInteger(n) && n > 1 ? n : 1
}
