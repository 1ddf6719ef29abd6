/**
 * Validation of a datasource's credentials and tenancySettings (docs/datasources.md#validation). The schema of
 * the type (schemas.ts) checks the structure through a compiled TypeBox validator; the few
 * conditional rules (rules.ts) run after it. Every failure is a 400 INVALID_REQUEST_BODY whose
 * message names the field: `credentials.port must be an integer between 1 and 65535`.
 *
 * Decisions (docs/datasources.md): unknown fields are rejected, naming the field; a field whose
 * value is `null` counts as absent; values are never coerced (a port given as "5432" is refused).
 */
import Type, { type TObject } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import { badRequest } from '../../errors.js'
import { TABLE_TENANCY_FIELDS, type TenancySettings, TenancySettingsSchema } from '../../query/tenancy/settings.js'
import { closestName } from '../../validation/names.js'
import { DATASOURCE_TYPES, type DatasourceType } from '../types.js'
import { describeFields, expectation, fieldMeta } from './fields.js'
import { checkRules, type Violation } from './rules.js'
import { type CredentialsByType, credentialSchema } from './schemas.js'

export type { DatabaseTenancySettings, TableTenancySettings, TenancySettings } from '../../query/tenancy/settings.js'
export type { CredentialsByType } from './schemas.js'

/** Validated credentials of type T (of any type when T is the whole union). */
export type ValidCredentials<T extends DatasourceType = DatasourceType> = CredentialsByType[T]

/** Credentials tagged with their type: switch on `type` and the credentials narrow with it. */
export type TypedCredentials = {
  [T in DatasourceType]: { readonly type: T; readonly credentials: CredentialsByType[T] }
}[DatasourceType]

/** The create/update body (docs/api.md#datasources). Credentials are checked per type by validateCredentials. */
export const DatasourceBody = Type.Object(
  {
    datasourceType: Type.Enum(DATASOURCE_TYPES, { description: 'The kind of database or storage.' }),
    credentials: Type.Object(
      { name: Type.String({ description: 'Identifies the datasource: unique per organization, case-sensitive.' }) },
      {
        additionalProperties: true,
        description:
          'The fields of datasourceType (docs/datasources.md); on update, the complete structure, except that a secret field left out keeps its stored value.',
      },
    ),
    tenancySettings: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'tenancyLevel TABLE or DATABASE, and for TABLE: clientColumnType, schemaName, tableName, ' +
            'tableClientNameColumn, tablePrimaryKeyColumn. On update, merged into the existing settings.',
        },
      ),
    ),
  },
  { additionalProperties: false },
)

export const isDatasourceType = (value: unknown): value is DatasourceType =>
  typeof value === 'string' && (DATASOURCE_TYPES as readonly string[]).includes(value)

/** Checks the credentials of `type`; returns a clean copy (schema fields only, in schema order). */
export function validateCredentials<T extends DatasourceType>(type: T, credentials: unknown): ValidCredentials<T> {
  if (!isDatasourceType(type)) {
    const problem = `must be one of: ${DATASOURCE_TYPES.join(', ')}`
    throw badRequest(`datasourceType ${problem}`, {
      field: 'datasourceType',
      fields: [{ in: 'body', path: 'datasourceType', problem, allowedValues: DATASOURCE_TYPES }],
    })
  }
  const value = checkStructure('credentials', credentialSchema(type), credentials, ` for ${type}`)
  const valid = value as ValidCredentials<T>
  const violation = checkRules(type, valid)
  if (violation) throw invalid('credentials', violation)
  return valid
}

const secretsByType = new Map<DatasourceType, readonly string[]>()

/** The fields of `type` marked secret in its schema: redacted from responses and logs. */
export function secretFields(type: DatasourceType): readonly string[] {
  let secrets = secretsByType.get(type)
  if (!secrets) {
    secrets = Object.freeze(
      describeFields(credentialSchema(type))
        .filter((field) => fieldMeta(field.schema).secret === true)
        .map((field) => field.name),
    )
    secretsByType.set(type, secrets)
  }
  return secrets
}

/**
 * A copy safe for responses and logs: the non-secret fields of the type's schema. Fields the
 * schema does not know are dropped too, so an unvalidated body (a misspelt `pasword`) is safe.
 */
export function redactCredentials(type: DatasourceType, credentials: unknown): Record<string, unknown> {
  if (!isPlainObject(credentials)) return {}
  const secrets = new Set(secretFields(type))
  const copy: Record<string, unknown> = {}
  for (const { name } of describeFields(credentialSchema(type))) {
    if (!secrets.has(name) && Object.hasOwn(credentials, name)) copy[name] = credentials[name]
  }
  return copy
}

/** Checks tenancySettings; for TABLE every table field is required. */
export function validateTenancySettings(settings: unknown): TenancySettings {
  const value = checkStructure('tenancySettings', TenancySettingsSchema, settings, '')
  if (value.tenancyLevel === 'TABLE') {
    const missing = TABLE_TENANCY_FIELDS.find((field) => value[field] === undefined)
    if (missing) throw invalid('tenancySettings', { field: missing, problem: 'is required when tenancyLevel is TABLE' })
  }
  return value as TenancySettings
}

/**
 * The update semantics (docs/datasources.md#tenancysettings-1): omitted tenancySettings leave the existing ones unchanged;
 * given ones update the existing fields and create the missing ones (a `null` field removes
 * it). The merged result is validated as a whole, so it may complete existing settings.
 */
export function mergeTenancySettings(
  existing: TenancySettings | undefined,
  update: unknown | undefined,
): TenancySettings | undefined {
  if (update === undefined) return existing
  if (!isPlainObject(update)) throw badRequest('tenancySettings must be an object', { field: 'tenancySettings' })
  const merged = new Map<string, unknown>(Object.entries(existing ?? {}))
  for (const [field, value] of Object.entries(update)) {
    if (value === null) merged.delete(field)
    else merged.set(field, value)
  }
  return validateTenancySettings(Object.fromEntries(merged))
}

// ---------------------------------------------------------------------------------------------

const validators = new Map<TObject, Validator>()

function validatorOf(schema: TObject): Validator {
  let validator = validators.get(schema)
  if (!validator) {
    validator = Compile(schema) as unknown as Validator
    validators.set(schema, validator)
  }
  return validator
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Structure of `value` against `schema`: the first problem, in field order, becomes the message. */
function checkStructure(
  prefix: string,
  schema: TObject,
  value: unknown,
  unknownSuffix: string,
): Record<string, unknown> {
  if (!isPlainObject(value)) throw badRequest(`${prefix} must be an object`, { field: prefix })
  // null counts as absent (a form that sends every field); the result never carries it.
  const input = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null))
  const validator = validatorOf(schema)
  if (!validator.Check(input)) throw invalid(prefix, firstViolation(schema, input, validator, unknownSuffix))
  const clean: Record<string, unknown> = {}
  for (const { name } of describeFields(schema)) if (Object.hasOwn(input, name)) clean[name] = input[name]
  return clean
}

function firstViolation(
  schema: TObject,
  input: Record<string, unknown>,
  validator: Validator,
  unknownSuffix: string,
): Violation {
  const unknown = Object.keys(input).find((key) => !Object.hasOwn(schema.properties, key))
  if (unknown !== undefined) {
    const free = Object.keys(schema.properties).filter((key) => !Object.hasOwn(input, key))
    const close = closestName(unknown, free)
    const suggestion = close === undefined ? '' : ` (did you mean "${close}"?)`
    return { field: shorten(unknown), problem: `is not a known field${unknownSuffix}${suggestion}` }
  }
  const bad = new Set(validator.Errors(input).map((error) => topField(error.instancePath)))
  for (const field of describeFields(schema)) {
    if (!Object.hasOwn(input, field.name)) {
      if (field.required) return { field: field.name, problem: 'is required' }
    } else if (bad.has(field.name)) {
      return { field: field.name, problem: expectation(field.schema) }
    }
  }
  return { field: '', problem: 'is invalid' }
}

/** `/port` → `port` (JSON Pointer, first segment). */
function topField(instancePath: string): string {
  const segment = instancePath.split('/')[1] ?? ''
  return segment.replaceAll('~1', '/').replaceAll('~0', '~')
}

const shorten = (field: string): string => (field.length > 64 ? `${field.slice(0, 64)}…` : field)

function invalid(prefix: string, { field, problem }: Violation) {
  const path = field === '' ? prefix : `${prefix}.${field}`
  return badRequest(`${path} ${problem}`, { field: path, fields: [{ in: 'body', path, problem }] })
}
