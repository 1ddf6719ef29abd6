/**
 * A warehouse is one folder: every connector folder holds the same file roles, and every line
 * of the registry is the definition its own folder exports, built from its own folder's
 * credentials schema and loading its own folder's connector (README.md, "Adding a warehouse").
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { REGISTRY } from './registry.js'
import { DATASOURCE_TYPES, type DatasourceType } from './types.js'

const HERE = fileURLToPath(new URL('.', import.meta.url))

/** Folders of connectors/ that are not a warehouse: what every connector shares. */
const NOT_WAREHOUSES = new Set(['credentials', 'shared', 'engine-host'])

/** The files every warehouse folder has. */
const MANDATORY = ['credentials.ts', 'definition.ts', 'connector.ts', 'errors.ts', 'README.md'] as const

/**
 * type-mapping.ts is mandatory too, except where the folder says why not. `standin/` is
 * optional: a folder whose engine runs here (PostgreSQL, MariaDB, DuckDB) or cannot be imitated
 * usefully has none.
 */
const TYPE_MAPPING_EXCEPTIONS: Readonly<Record<string, string>> = {
  awss3: 'its files are read by DuckDB: duckdb/type-mapping.ts maps their types',
  athena: 'Athena engine v3 speaks Trino SQL: trino/type-mapping.ts maps its types',
  elasticsearch: 'mapping.ts: the index mappings are the type mapping',
}

/** Modules a definition may load from outside its folder, with the reason. */
const CROSS_FOLDER_LOADS: Readonly<Record<string, readonly string[]>> = {
  // a file:/// endpoint is a local mirror: DuckDB reads it in place
  awss3: ['../duckdb/connector.js'],
}

const warehouseFolders = readdirSync(HERE).filter(
  (name) => statSync(join(HERE, name)).isDirectory() && !NOT_WAREHOUSES.has(name),
)

const read = (folder: string, file: string) => readFileSync(join(HERE, folder, file), 'utf8')

/** The folder whose definition.ts exports `type`'s registry line, by identity. */
async function folderOf(type: DatasourceType): Promise<string | undefined> {
  for (const folder of warehouseFolders) {
    if (!existsSync(join(HERE, folder, 'definition.ts'))) continue
    const definitions = (await import(/* @vite-ignore */ join(HERE, folder, 'definition.ts'))) as Record<
      string,
      unknown
    >
    if (definitions[type] === REGISTRY[type]) return folder
  }
  return undefined
}

describe('connector folders', () => {
  it('the folders are found (a renamed connectors/ would make the checks below vacuous)', () => {
    expect(warehouseFolders).toEqual(expect.arrayContaining(['postgres', 'mysql', 'duckdb', 'trino']))
  })

  it.each(warehouseFolders)('%s has every mandatory role', (folder) => {
    const files = readdirSync(join(HERE, folder))
    const roles: string[] = [...MANDATORY]
    if (!(folder in TYPE_MAPPING_EXCEPTIONS)) roles.push('type-mapping.ts')
    expect(
      roles.filter((role) => !files.includes(role)),
      `missing in connectors/${folder}/`,
    ).toEqual([])
  })

  it.each(warehouseFolders)('%s: a standin/ holds only test code (the build leaves it out)', (folder) => {
    const dir = join(HERE, folder, 'standin')
    if (!existsSync(dir)) return
    const build = JSON.parse(readFileSync(join(HERE, '../../tsconfig.build.json'), 'utf8')) as { exclude: string[] }
    expect(build.exclude).toContain('src/connectors/*/standin')
    // no production module imports a stand-in
    for (const file of readdirSync(join(HERE, folder))) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue
      expect(read(folder, file), `${folder}/${file}`).not.toMatch(/from '\.\/standin\//)
    }
  })

  it.each([...DATASOURCE_TYPES])(
    '%s: its registry line is its folder’s definition, of its folder’s credentials schema',
    async (type) => {
      const folder = await folderOf(type)
      expect(folder, `no connectors/<folder>/definition.ts exports \`${type}\` as the registry holds it`).toBeDefined()
      const schemas = (await import(/* @vite-ignore */ join(HERE, folder ?? '', 'credentials.ts'))) as Record<
        string,
        unknown
      >
      expect(REGISTRY[type].credentials, `${folder}/credentials.ts exports ${type}Credentials`).toBe(
        schemas[`${type}Credentials`],
      )
    },
  )

  it.each(warehouseFolders.filter((folder) => existsSync(join(HERE, folder, 'definition.ts'))))(
    '%s/definition.ts loads its connector from its own folder',
    (folder) => {
      const loads = [...read(folder, 'definition.ts').matchAll(/import\(\s*'([^']+)'\s*\)/g)].map((m) => m[1] ?? '')
      expect(loads.length, 'a lazy import of the connector').toBeGreaterThan(0)
      const allowed = CROSS_FOLDER_LOADS[folder] ?? []
      expect(loads.filter((path) => !path.startsWith('./') && !allowed.includes(path))).toEqual([])
    },
  )

  it('the registry imports only definitions, one line per folder', () => {
    const source = readFileSync(join(HERE, 'registry.ts'), 'utf8')
    const folders = [...source.matchAll(/from '\.\/([^/']+)\/([^']+)'/g)].map(([, folder, file]) => {
      expect(file, `registry.ts imports ${folder}/${file}`).toBe('definition.js')
      return folder
    })
    expect(new Set(folders).size).toBe(folders.length)
    expect([...folders].sort()).toEqual([...warehouseFolders].sort())
  })
})
