import type { CredentialField, DatasourceTypeInfo } from '@strata/contract/studio'
import type { TSchema } from 'typebox'
import { capabilitiesOf } from '../registry.js'
import { DATASOURCE_TYPES } from '../types.js'
import { LIVE_CONNECTOR_TYPES } from './docs.js'
import { describeFields, fieldMeta, MAX_STRING } from './fields.js'
import { credentialSchema } from './schemas.js'

/**
 * The credential form of every datasource type, read from the same schemas that validate the
 * credentials: the studio draws its form from this, so a new field or type needs no UI change.
 */
export function credentialForms(): DatasourceTypeInfo[] {
  return DATASOURCE_TYPES.map((type) => {
    const schema = credentialSchema(type)
    return {
      datasourceType: type,
      title: String((schema as { title?: unknown }).title ?? type),
      supported: LIVE_CONNECTOR_TYPES.includes(type),
      fullJoin: capabilitiesOf(type).fullJoin,
      fields: describeFields(schema).map(({ name, required, schema: field }) => describeField(name, required, field)),
    }
  })
}

function describeField(name: string, required: boolean, schema: TSchema): CredentialField {
  const s = schema as Record<string, unknown>
  const { label, description, secret } = fieldMeta(schema)
  const base = { name, label, description, required, secret: secret === true }
  if (Array.isArray(s.enum)) return { ...base, kind: 'choice', options: s.enum.map(String) }
  if (s.type === 'boolean') {
    return { ...base, kind: 'boolean', ...(typeof s.default === 'boolean' ? { default: s.default } : {}) }
  }
  if (s.type === 'integer') {
    return { ...base, kind: 'integer', minimum: Number(s.minimum), maximum: Number(s.maximum) }
  }
  const long = typeof s.maxLength === 'number' && s.maxLength > MAX_STRING
  return { ...base, kind: long ? 'longText' : 'text' }
}
