/**
 * FILES_ROOT (docs/operations.md#files-of-csv-datasources): the one directory whose files `csv` datasources, and `awss3`
 * ones with a `file:///` endpoint, may read. No datasource makes the server read its own files.
 *
 * A path is checked twice. By its text: relative, no `..`, nothing hidden, no character that
 * DuckDB or a URL would read as something else (`\`, `%`, glob characters, control characters).
 * Then by where it really is: `realpath` of the root and of the path, so a symbolic link anywhere
 * on the way counts by its target. The second check runs every time the files are opened (and,
 * for files DuckDB reads again on each query, before each query), not only when the datasource
 * is created: a link planted later is refused the same way. Both failures are 400
 * INVALID_REQUEST_BODY naming the field.
 */
import { realpath } from 'node:fs/promises'
import path from 'node:path'
import { badRequest } from '../../errors.js'
import { connectionError } from '../errors.js'

/** Characters no path segment may hold: separators of other systems, escapes, globs, controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const FORBIDDEN = /[\u0000-\u001f\u007f\\%*?[\]{}]/

const MAX_PATH = 1024

/** Why `value` is not a path relative to FILES_ROOT, or undefined when it is one. */
export function relativePathProblem(value: string): string | undefined {
  if (value === '') return 'must name a file or directory under FILES_ROOT'
  if (value.length > MAX_PATH) return `must be at most ${MAX_PATH} characters`
  if (FORBIDDEN.test(value)) {
    return 'must not contain backslashes, percent signs, glob characters (* ? [ ] { }) or control characters'
  }
  if (value.startsWith('/') || /^[A-Za-z]:/.test(value)) return 'must be relative to FILES_ROOT, not absolute'
  const segments = value.replace(/\/$/, '').split('/')
  for (const segment of segments) {
    if (segment === '..') return 'must not contain ".." (it must stay under FILES_ROOT)'
    if (segment === '' || segment === '.') return 'must not contain empty or "." segments'
    if (segment.startsWith('.')) return 'must not name hidden files or directories (starting with ".")'
  }
  return undefined
}

/** Whether `candidate` is `root` itself (when `orSame`) or lies under it; both already real. */
export function isUnder(root: string, candidate: string, orSame = false): boolean {
  if (candidate === root) return orSame
  return candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep)
}

export const outside = (field: string, shown: string): Error =>
  badRequest(
    `${field} "${shown.slice(0, 200)}" resolves outside FILES_ROOT (through "..", an absolute path or a link)`,
    {
      field,
    },
  )

/** The real path of FILES_ROOT (it may itself be a link, e.g. to a mounted volume). */
export async function realRoot(filesRoot: string | undefined): Promise<string> {
  if (filesRoot === undefined) throw connectionError('this server reads no local files (no FILES_ROOT)')
  try {
    return await realpath(filesRoot)
  } catch (err) {
    throw connectionError('FILES_ROOT does not exist or cannot be read', err)
  }
}

/**
 * The real path of `relative` (checked as text first) under `root` (a real path), strictly
 * below it; 400 when it resolves elsewhere, DATASOURCE_CONNECTION_ERROR when it does not exist.
 */
export async function resolveUnder(root: string, relative: string, field: string): Promise<string> {
  const problem = relativePathProblem(relative)
  if (problem) throw badRequest(`${field} ${problem}`, { field })
  const real = await realOrFail(path.join(root, relative), relative)
  if (!isUnder(root, real)) throw outside(field, relative)
  return real
}

/** `realpath`, its failure (missing, a loop, a NUL) answered as a connection error naming `shown`. */
export async function realOrFail(file: string, shown: string): Promise<string> {
  try {
    return await realpath(file)
  } catch (err) {
    throw connectionError(`${shown.slice(0, 200)} does not exist or cannot be read`, err)
  }
}

/**
 * Proves that each file is still where it was found: its real path unchanged (no component was
 * turned into a link since) and under `root`. Throws the 400 of `field` otherwise.
 */
export async function recheck(root: string, files: readonly string[], field: string): Promise<void> {
  await Promise.all(
    files.map(async (file) => {
      const shown = path.relative(root, file)
      const real = await realOrFail(file, shown)
      if (real !== file || !isUnder(root, real)) throw outside(field, shown)
    }),
  )
}
