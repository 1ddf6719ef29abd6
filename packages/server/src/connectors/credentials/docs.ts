/**
 * Renders the per-type field reference of docs/datasources.md from the schemas and rules, so
 * the docs cannot drift: validate.test.ts fails when the file's generated block differs from
 * `renderCredentialReference()` (rewrite the block: `UPDATE_DOCS=1 npx vitest run
 * packages/server/src/connectors/credentials`).
 */
import type { TSchema } from 'typebox'
import { TenancySettingsSchema } from '../../query/tenancy/settings.js'
import { DATASOURCE_TYPES, type DatasourceType } from '../types.js'
import { describeFields, fieldMeta, MAX_STRING } from './fields.js'
import { ruleDocs } from './rules.js'
import { credentialSchema } from './schemas.js'

export const BEGIN_MARKER = '<!-- BEGIN GENERATED: credential reference (validate.test.ts, UPDATE_DOCS=1) -->'
export const END_MARKER = '<!-- END GENERATED: credential reference -->'

/**
 * Types whose connector connects and queries: every registered type (a registry line cannot be
 * written without its connector's `load`). Kept as a name for the docs and the studio's form.
 */
export const LIVE_CONNECTOR_TYPES: readonly DatasourceType[] = DATASOURCE_TYPES

const ORIGIN: Partial<Record<DatasourceType, string>> = {
  csv: "The hosted API defines no fields for this type: these are Strata's. Files are read by DuckDB from under `FILES_ROOT`, where `PUT /api/v2/datasource/files/:datasourceName/:fileName` stores them; each file is a table in schema `main`.",
  awss3:
    "The hosted API defines no fields for this type: these are Strata's. S3 (an `http(s)://` endpoint, or none: AWS in `region`) is read through a local cache of the objects, refreshed on sync; an `endpoint` of the form `file:///dir`, `dir` under `FILES_ROOT`, reads a local mirror in place.",
  athena:
    "The hosted API defines no fields for this type: these are Strata's, after the Athena API (results go to `s3OutputLocation`).",
  trino: "The hosted API defines no fields for this type: these are Strata's, after Trino's client protocol.",
  firebolt:
    "The hosted API defines only `client_id`: the other fields are Strata's, after Firebolt service-account authentication.",
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

/** The value a field takes, in words. */
export function typeOf(schema: TSchema): string {
  const s = schema as Record<string, unknown>
  if (Array.isArray(s.enum)) return s.enum.map((v) => `\`${String(v)}\``).join(' or ')
  if (s.type === 'integer') return `integer ${String(s.minimum)}-${String(s.maximum)}`
  if (s.type === 'boolean') return s.default === undefined ? 'boolean' : `boolean (default ${String(s.default)})`
  const min = typeof s.minLength === 'number' ? s.minLength : 0
  const max = typeof s.maxLength === 'number' ? s.maxLength : undefined
  if (min === 0) return 'string (may be empty)'
  return max === MAX_STRING ? 'string' : `string (1-${String(max)} chars)`
}

/** A Markdown table, columns padded as Biome formats them (so the generated block stays lint-clean). */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(3, h.length, ...rows.map((row) => row[i]?.length ?? 0)))
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)]
}

function fieldTable(fields: ReturnType<typeof describeFields>): string[] {
  const rows = fields.map(({ name, required, schema }) => {
    const meta = fieldMeta(schema)
    const description = meta.addition ? `_Our addition._ ${meta.description}` : meta.description
    return [
      `\`${name}\``,
      cell(typeOf(schema)),
      required ? 'yes' : 'no',
      meta.secret ? 'secret' : '',
      cell(description),
    ]
  })
  return table(['Field', 'Type', 'Required', 'Secret', 'Description'], rows)
}

export function renderCredentialReference(): string {
  const out: string[] = [BEGIN_MARKER, '']
  for (const type of DATASOURCE_TYPES) {
    const schema = credentialSchema(type)
    const live = LIVE_CONNECTOR_TYPES.includes(type)
    out.push(`### ${type}`, '')
    out.push(
      live ? 'Connector: **live**.' : 'Connector: validation only (connect answers DATASOURCE_NOT_SUPPORTED).',
      '',
    )
    const origin = ORIGIN[type]
    if (origin) out.push(origin, '')
    out.push(...fieldTable(describeFields(schema)), '')
    const rules = ruleDocs(type)
    if (rules.length > 0) out.push('Rules:', '', ...rules.map((rule) => `- ${rule}`), '')
  }
  out.push('### tenancySettings', '', ...fieldTable(describeFields(TenancySettingsSchema)), '', END_MARKER)
  return out.join('\n')
}
