/**
 * Field builders for the credential schemas. Every field carries `{ label, description, secret? }`
 * in its JSON Schema: the API validates with the schema, docs/datasources.md is generated from it
 * and `secretFields()` reads `secret` to know what is redacted from responses and logs.
 */
import Type, { type TObject, type TProperties, type TSchema } from 'typebox'

/** The metadata every credential field carries. */
export interface FieldMeta {
  /** Human label (forms, docs). */
  readonly label: string
  readonly description: string
  /** Redacted from responses and logs. */
  readonly secret?: true
  /** Not in the hosted API's fields: one we added (docs/datasources.md marks it). */
  readonly addition?: true
  /**
   * Says where the connection goes (a host, URL or port): a stored secret is reused on update
   * only while every such field keeps its stored value (keep-secrets.ts).
   */
  readonly endpoint?: true
}

/** Upper bound of ordinary strings (hosts, names of databases, users …). */
export const MAX_STRING = 1000
/** Upper bound of long text: PEM keys, service-account JSON. */
export const MAX_TEXT = 100_000

type Extra = {
  readonly secret?: true
  readonly addition?: true
  readonly endpoint?: true
  readonly maxLength?: number
}

const meta = (label: string, description: string, extra: Extra = {}) => ({ label, description, ...extra })

/** A non-empty string (identifiers, users, regions …). */
export const text = (label: string, description: string, extra?: Extra) =>
  Type.String({ minLength: 1, maxLength: MAX_STRING, ...meta(label, description, extra) })

/** A host name, address or URL: never empty; an endpoint field. */
export const host = (label: string, description: string, extra?: Extra) =>
  text(label, description, { ...extra, endpoint: true })

/** A long, non-empty text (PEM key, JSON document). */
export const longText = (label: string, description: string, extra?: Extra) =>
  Type.String({ minLength: 1, maxLength: MAX_TEXT, ...meta(label, description, extra) })

/** A password: secret, and may be empty (password-less local users). */
export const password = (description: string, extra?: Extra) =>
  Type.String({ maxLength: MAX_STRING, ...meta('Password', description, { secret: true, ...extra }) })

/** A TCP port; an endpoint field. */
export const port = (label: string, description: string, extra?: Extra) =>
  Type.Integer({ minimum: 1, maximum: 65535, ...meta(label, description, { ...extra, endpoint: true }) })

export const flag = (label: string, description: string, extra?: Omit<Extra, 'maxLength'> & { default?: boolean }) =>
  Type.Boolean({ ...meta(label, description, extra) })

export const choice = <const V extends string[]>(
  values: readonly [...V],
  label: string,
  description: string,
  extra?: Omit<Extra, 'maxLength'>,
) => Type.Enum(values, meta(label, description, extra))

/** `credentials.name`: identifies the datasource (unique per organization, case-sensitive). */
export const Name = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  ...meta('Name', 'Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.'),
})

/** A credentials object: `name` first, then the type's fields; unknown fields are rejected. */
export const credentials = <P extends TProperties>(title: string, properties: P) =>
  Type.Object({ name: Name, ...properties }, { additionalProperties: false, title })

/** The metadata of a field schema (every field built here has it). */
export const fieldMeta = (schema: TSchema): FieldMeta => schema as unknown as FieldMeta

/** The fields of a credentials schema, in declaration order, with whether each is required. */
export function describeFields(schema: TObject): { name: string; required: boolean; schema: TSchema }[] {
  const required = new Set<string>(schema.required ?? [])
  return Object.entries(schema.properties).map(([name, field]) => ({
    name,
    required: required.has(name),
    schema: field,
  }))
}

/** What a field must be, in words: the tail of every message about a bad value. */
export function expectation(schema: TSchema): string {
  const s = schema as Record<string, unknown>
  if (Array.isArray(s.enum)) return `must be one of ${s.enum.map((v) => `'${String(v)}'`).join(', ')}`
  switch (s.type) {
    case 'integer':
      return typeof s.minimum === 'number' && typeof s.maximum === 'number'
        ? `must be an integer between ${s.minimum} and ${s.maximum}`
        : 'must be an integer'
    case 'boolean':
      return 'must be a boolean'
    case 'string': {
      const max = typeof s.maxLength === 'number' ? ` of at most ${s.maxLength} characters` : ''
      return typeof s.minLength === 'number' && s.minLength > 0
        ? `must be a non-empty string${max}`
        : `must be a string${max}`
    }
    default:
      return 'is invalid'
  }
}
