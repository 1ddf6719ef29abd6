import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript'

/**
 * Turns the server's OpenAPI document into the client's generated sources: the types of the
 * operations a backend calls (openapi-typescript) and which credential each one takes. Pure,
 * so that scripts/generate.ts writes them and test/generated.test.ts checks the committed files
 * against the document a live server serves.
 */

/** The security schemes a backend holds; the browser's guest token and the admin JWT are not the client's. */
export const BACKEND_SCHEMES = { dataAppKey: 'apiKey', serviceToken: 'serviceToken' } as const
type Scheme = keyof typeof BACKEND_SCHEMES

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const

interface Operation {
  readonly deprecated?: boolean
  readonly security?: readonly Record<string, readonly string[]>[]
}

/** The generated files, by path under packages/node. */
export type GeneratedSources = Record<'src/generated/openapi.ts' | 'src/generated/credentials.ts', string>

const HEADER = (what: string) =>
  `/**\n * ${what}\n * Generated from the server's /openapi.json by \`npm run generate -w packages/node\`: do not edit.\n */\n\n`

/** The backend's operations only (data app key or service token), legacy paths left out. */
export function backendDocument(document: OpenAPI3): { document: OpenAPI3; credentials: Record<string, string> } {
  const paths: Record<string, Record<string, unknown>> = {}
  const credentials: Record<string, string> = {}
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method]
      if (!operation || operation.deprecated) continue
      const scheme = operation.security?.flatMap((requirement) => Object.keys(requirement))[0]
      if (!scheme || !(scheme in BACKEND_SCHEMES)) continue
      paths[path] ??= {}
      ;(paths[path] as Record<string, unknown>)[method] = operation
      credentials[`${method.toUpperCase()} ${path}`] = BACKEND_SCHEMES[scheme as Scheme]
    }
  }
  return { document: { ...document, paths } as OpenAPI3, credentials }
}

export async function generateSources(document: OpenAPI3): Promise<GeneratedSources> {
  const backend = backendDocument(document)
  const ast = await openapiTS(backend.document)
  const entries = Object.entries(backend.credentials)
    .map(([operation, credential]) => `  '${operation}': '${credential}',`)
    .join('\n')
  return {
    'src/generated/openapi.ts': `${HEADER('The types of the backend operations of the Strata API.')}${astToString(ast)}`,
    'src/generated/credentials.ts': `${HEADER('The credential each backend operation takes: the data app API key or the service token.')}export const credentials = {\n${entries}\n} as const\n`,
  }
}
