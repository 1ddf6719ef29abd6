/** The credentials schema of `csv`: the fields, their docs and which are secret. */
import Type from 'typebox'
import { credentials, text } from '../credentials/fields.js'

const { Optional } = Type

/** The credentials of `csv`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const csvCredentials = credentials('CSV credentials', {
  path: text(
    'Path',
    'Relative to FILES_ROOT: a directory (each .csv, .parquet or .json file in it is a table) or one file.',
  ),
  delimiter: Optional(text('Delimiter', 'CSV delimiter, 1-4 characters (default: detected).', { maxLength: 4 })),
})
