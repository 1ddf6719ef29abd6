import type { TSchema } from '@fastify/type-provider-typebox'
import { DashboardDocumentSchema } from '@strata/contract/document'
import { Ajv2020 } from 'ajv/dist/2020.js'
import formats from 'ajv-formats'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  DatasourceBody,
  validateCredentials,
  validateTenancySettings,
} from '../../src/connectors/credentials/validate.js'
import type { DatasourceType } from '../../src/connectors/types.js'
import { ImportDashboardBody, UpdateDashboardBody } from '../../src/schemas/dashboards.js'
import { DATASOURCE_CREATE_EXAMPLES, DATASOURCE_UPDATE_EXAMPLES } from '../../src/schemas/datasource-request.js'
import { CreateEmbedBody, EmptyDashboardEmbedBody, REQUIRED_ON_CREATE } from '../../src/schemas/embeds.js'
import { createTestApp, type TestContext } from '../helpers/app.js'

/**
 * The examples of `/openapi.json` never rot: each one (request bodies, and any schema's own
 * `examples`) is valid against the schema it illustrates, checked by ajv (JSON Schema 2020-12,
 * OpenAPI 3.1's dialect) with the document's components; every operation that takes a body
 * shows one. Where a route validates a more lenient schema than the document shows (the
 * service checks the rest), its examples pass the route's schema and the service's check too.
 */
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const
type Json = Record<string, unknown>

/** A schema object of the document: it constrains something. */
const isSchema = (node: Json) =>
  ['type', 'properties', 'anyOf', 'oneOf', 'allOf', '$ref', 'enum', 'const'].some((k) => k in node)

/** JSON Pointer escaping. */
const token = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1')

describe('the examples of /openapi.json', () => {
  let t: TestContext
  let doc: Json & { paths: Record<string, Record<string, Json>> }
  let ajv: Ajv2020
  beforeAll(async () => {
    t = await createTestApp('sqlite')
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json()
    // OpenAPI keywords (example, discriminator …) are annotations here; the document is the base of every $ref
    ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false })
    formats.default(ajv)
    ajv.addFormat('password', true)
    ajv.addSchema(doc, 'openapi.json')
  })
  afterAll(async () => t.close())

  /** Problems of `value` against the schema at `pointer` of the document (none: valid). */
  const problems = (pointer: string, value: unknown): string[] => {
    const validate = ajv.compile({ $ref: `openapi.json#${pointer}` })
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`)
  }

  /** Every example in the document, with the pointer of the schema it illustrates. */
  const examples = () => {
    const found: { where: string; schema: string; value: unknown }[] = []
    const walk = (node: unknown, pointer: string) => {
      if (!node || typeof node !== 'object') return
      if (Array.isArray(node)) {
        for (const [i, item] of node.entries()) walk(item, `${pointer}/${i}`)
        return
      }
      const object = node as Json
      // a media type: example / examples { name: { value } } of its schema
      if ('schema' in object && ('example' in object || 'examples' in object)) {
        if ('example' in object) found.push({ where: pointer, schema: `${pointer}/schema`, value: object.example })
        for (const [name, example] of Object.entries((object.examples ?? {}) as Record<string, { value: unknown }>))
          found.push({ where: `${pointer} ${name}`, schema: `${pointer}/schema`, value: example.value })
      } else if (isSchema(object)) {
        if (Array.isArray(object.examples))
          for (const [i, value] of object.examples.entries())
            found.push({ where: `${pointer}/examples/${i}`, schema: pointer, value })
        if ('example' in object) found.push({ where: `${pointer}/example`, schema: pointer, value: object.example })
      }
      for (const [key, child] of Object.entries(object)) {
        if (key === 'example' || key === 'examples') continue
        walk(child, `${pointer}/${token(key)}`)
      }
    }
    walk(doc.paths, '/paths')
    walk(doc.components, '/components')
    return found
  }

  /** The request body examples of each operation that takes a body. */
  const bodies = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      METHODS.flatMap((method) => {
        const operation = item[method] as { operationId: string; requestBody?: { content: Record<string, Json> } }
        if (!operation?.requestBody) return []
        const media = Object.values(operation.requestBody.content)[0] as Json
        const named = (media.examples ?? {}) as Record<string, { value: unknown }>
        const values = 'example' in media ? [media.example] : Object.values(named).map((e) => e.value)
        return [{ where: `${method.toUpperCase()} ${path}`, operationId: operation.operationId, values }]
      }),
    )

  it('are valid against the schema each illustrates', () => {
    const all = examples()
    expect(all.length).toBeGreaterThan(40)
    const invalid = all.flatMap(({ where, schema, value }) => problems(schema, value).map((p) => `${where}: ${p}`))
    expect(invalid).toEqual([])
  })

  it('a broken example is caught (the check is not vacuous)', () => {
    const body = '/paths/~1api~1v2~1datasource/post/requestBody/content/application~1json/schema'
    expect(problems(body, DATASOURCE_CREATE_EXAMPLES[0])).toEqual([])
    const { port: _, ...noPort } = DATASOURCE_CREATE_EXAMPLES[0].credentials
    expect(problems(body, { ...DATASOURCE_CREATE_EXAMPLES[0], credentials: noPort })).not.toEqual([])
    expect(problems(body, { ...DATASOURCE_CREATE_EXAMPLES[1], datasourceType: 'postgres' })).not.toEqual([])
  })

  it('every operation that takes a body shows a complete example of it', () => {
    const missing = bodies().filter((b) => b.values.length === 0)
    expect(missing.map((b) => b.where)).toEqual([])
    expect(bodies().length).toBeGreaterThan(35)
  })

  it('the embed create example carries a full accessSettings: datamartName and every field required on create', () => {
    for (const id of ['createEmbed', 'createEmbedLegacy', 'createDashboardEmbed']) {
      const example = bodies().find((b) => b.operationId === id)?.values[0] as { accessSettings: Json }
      for (const field of ['datamartName', ...REQUIRED_ON_CREATE])
        expect(example.accessSettings, id).toHaveProperty(field)
    }
  })

  it("pass the routes' own schema and the services' checks where the document is more precise", () => {
    const values = (id: string) => bodies().find((b) => b.operationId === id)?.values ?? []
    const accepted = (schema: TSchema, value: unknown, where: string) =>
      expect(Value.Check(schema, value), `${where}: ${JSON.stringify([...Value.Errors(schema, value)][0])}`).toBe(true)
    for (const value of values('createEmbed')) accepted(CreateEmbedBody, value, 'createEmbed')
    for (const value of values('createDashboardEmbed')) accepted(EmptyDashboardEmbedBody, value, 'createDashboardEmbed')
    for (const id of ['importDashboard', 'validateDashboard']) {
      for (const value of values(id)) {
        accepted(ImportDashboardBody, value, id)
        accepted(DashboardDocumentSchema, (value as Json).importDashboardData, id)
      }
    }
    for (const value of values('updateDashboard')) accepted(UpdateDashboardBody, value, 'updateDashboard')
    expect(values('createDatasource')).toEqual(DATASOURCE_CREATE_EXAMPLES)
    expect(values('updateDatasource')).toEqual(DATASOURCE_UPDATE_EXAMPLES)
    for (const value of [...DATASOURCE_CREATE_EXAMPLES, ...DATASOURCE_UPDATE_EXAMPLES]) {
      accepted(DatasourceBody, value, value.datasourceType)
      expect(() => validateCredentials(value.datasourceType as DatasourceType, value.credentials)).not.toThrow()
    }
    for (const { tenancySettings } of DATASOURCE_CREATE_EXAMPLES.filter((e) => 'tenancySettings' in e))
      expect(() => validateTenancySettings(tenancySettings)).not.toThrow()
  })
})
