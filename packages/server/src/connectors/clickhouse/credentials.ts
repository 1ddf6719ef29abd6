/** The credentials schema of `clickhouse`: the fields, their docs and which are secret. */
import Type from 'typebox'
import { credentials, flag, text } from '../credentials/fields.js'
import { ours, serverFields, tlsCa } from '../credentials/shared-fields.js'

const { Optional } = Type

/** The credentials of `clickhouse`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const clickhouseCredentials = credentials('ClickHouse credentials', {
  ...serverFields('ClickHouse'),
  database: Optional(text('Database', 'Default database (else `default`).', ours)),
  ssl: Optional(flag('SSL', 'Use https instead of http (the certificate is verified).', ours)),
  tlsCaCertificate: tlsCa(),
})
