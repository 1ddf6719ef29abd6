/**
 * Which media types an Elasticsearch version accepts in `Accept` and `Content-Type`, as its REST
 * layer checks them (Elastic's REST API compatibility documentation:
 * https://www.elastic.co/docs/reference/elasticsearch/rest-apis/compatibility and
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.17/rest-api-compatibility.html):
 * - `application/json` (and `text/plain` in Accept) is accepted by every version;
 * - `application/vnd.elasticsearch+json; compatible-with=N` asks for version N's API: a cluster of
 *   major M accepts N = M or M - 1 (8.x: 8 or 7; 9.x: 9 or 8) and refuses any other N with
 *   400 `media_type_header_exception` ("Accept version must be either version 8 or 7, but found 9");
 * - 7.x (from 7.11) accepts the versioned type with compatible-with=7 only, serving its own API;
 *   there is no 6 to be compatible with (our reading; any other N is refused as above);
 * - when both headers carry a version, the versions must match (the same exception).
 * The stand-in checks these before authentication, as the cluster parses them first.
 */

const VENDOR = /^application\/vnd\.elasticsearch\+(json|x-ndjson)\s*(;.*)?$/i

/** The compatible-with version of one header's media types, or null for plain types, or NaN. */
function requestedVersion(header: string | undefined): number | null {
  if (header === undefined) return null
  let version: number | null = null
  for (const part of header.split(',')) {
    const type = part.trim()
    const vendor = VENDOR.exec(type)
    if (!vendor) continue
    const m = /compatible-with\s*=\s*(\d+)/i.exec(vendor[2] ?? '')
    version = m ? Number(m[1]) : Number.NaN
  }
  return version
}

/** The 400 body of a refused media type, or undefined when `major` accepts these headers. */
export function mediaTypeRefusal(
  major: number,
  headers: { accept?: string | undefined; contentType?: string | undefined },
): Record<string, unknown> | undefined {
  const accepted = major >= 8 ? [major, major - 1] : [major]
  const problems: string[] = []
  const failed: string[] = []
  const accept = requestedVersion(headers.accept)
  const content = requestedVersion(headers.contentType)
  for (const [name, version, value] of [
    ['Accept', accept, headers.accept],
    ['Content-Type', content, headers.contentType],
  ] as const) {
    if (version !== null && !accepted.includes(version)) {
      failed.push(name)
      problems.push(
        `${name} version must be either version ${accepted.join(' or ')}, but found ${Number.isNaN(version) ? 'none' : version}. ${name}=${value}`,
      )
    }
  }
  if (failed.length === 0 && accept !== null && content !== null && accept !== content) {
    failed.push('Accept', 'Content-Type')
    problems.push(
      `A compatible version is required on both Content-Type and Accept headers if either one has requested a compatible version and the compatible versions must match. Accept=${headers.accept}, Content-Type=${headers.contentType}`,
    )
  }
  if (failed.length === 0) return undefined
  const reason = `Invalid media-type value on headers [${[...new Set(failed)].join(', ')}]`
  return {
    error: {
      root_cause: [{ type: 'media_type_header_exception', reason }],
      type: 'media_type_header_exception',
      reason,
      caused_by: { type: 'status_exception', reason: problems.join(' ') },
    },
    status: 400,
  }
}
