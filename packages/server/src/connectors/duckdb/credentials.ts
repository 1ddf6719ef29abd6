/** The credentials schema of `csv`: the fields, their docs and which are secret. */

import type { Static } from 'typebox'
import Type from 'typebox'
import { credentials, text } from '../credentials/fields.js'
import type { CredentialRule } from '../credentials/rule-builders.js'
import { relativePathProblem } from './files-root.js'

const { Optional } = Type

/** The credentials of `csv`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const csvCredentials = credentials('CSV credentials', {
  path: text(
    'Path',
    'Relative to FILES_ROOT: a directory (each .csv, .parquet or .json file in it is a table) or one file.',
  ),
  delimiter: Optional(text('Delimiter', 'CSV delimiter, 1-4 characters (default: detected).', { maxLength: 4 })),
})

/** The path, under FILES_ROOT. */
export const csvRules: CredentialRule<Static<typeof csvCredentials>> = {
  doc: [
    '`path` is relative to `FILES_ROOT` (where `PUT /api/v2/datasource/files/:datasourceName/:fileName` stores files): the folder `datasourceName`, or one file in it.',
    'An absolute `path`, one with `..` or hidden segments, backslashes, `%`, glob or control characters, or one that resolves outside `FILES_ROOT` through a link is 400 `INVALID_REQUEST_BODY`; links are resolved whenever the files are opened, not only on create.',
  ],
  check: (c) => {
    const problem = relativePathProblem(c.path)
    return problem ? { field: 'path', problem } : undefined
  },
}
