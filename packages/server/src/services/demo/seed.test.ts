import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestContext } from '../../../test/helpers/app.js'
import { newId } from '../../security/secrets.js'
import { now } from '../../store/store.js'
import { PRIMARY_ORGANIZATION_ID } from '../admin/admin-accounts.js'
import { writeDemoDataset } from './dataset.js'
import { DEMO, seedDemo } from './seed.js'

/** The demo's csv datasource reads its dataset under FILES_ROOT, by a relative path (docs/operations.md#files-of-csv-datasources). */
describe('demo seed', () => {
  let t: TestContext | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  const storedPath = async (app: TestContext) => {
    const { store, keyring } = app.app.services
    const row = await store.db
      .selectFrom('datasources')
      .selectAll()
      .where('name', '=', DEMO.datasource)
      .executeTakeFirstOrThrow()
    return (JSON.parse(keyring.decrypt(row.credentials, row.id)) as { path: string }).path
  }
  const tables = async (app: TestContext) => {
    const { datasources } = app.app.services
    const datasource = await datasources.byName(PRIMARY_ORGANIZATION_ID, DEMO.datasource)
    if (!datasource) throw new Error('no demo datasource')
    return (await (await datasources.connector(datasource)).introspect()).map((table) => table.name).sort()
  }

  it('writes the dataset under FILES_ROOT and points the datasource at it by a relative path', async () => {
    t = await createTestApp('sqlite')
    await seedDemo(t.app.services, t.app.log)
    expect(existsSync(join(t.config.filesRoot, DEMO.folder, 'orders.csv'))).toBe(true)
    expect(await storedPath(t)).toBe(DEMO.folder)
    expect(await tables(t)).toEqual(['customers', 'orders'])
  })

  it('moves a demo seeded by an earlier version (absolute path outside FILES_ROOT) to FILES_ROOT', async () => {
    t = await createTestApp('sqlite')
    const old = join(t.config.dataDir, 'demo')
    mkdirSync(old)
    writeDemoDataset(old, { customers: 10, orders: 50 })
    const { store, keyring } = t.app.services
    const id = newId()
    await store.db
      .insertInto('organizations')
      .values({ id: PRIMARY_ORGANIZATION_ID, name: 'Strata', created_at: now() })
      .execute()
    await store.db
      .insertInto('datasources')
      .values({
        id,
        organization_id: PRIMARY_ORGANIZATION_ID,
        name: DEMO.datasource,
        type: 'csv',
        credentials: keyring.encrypt(JSON.stringify({ name: DEMO.datasource, path: old }), id),
        tenancy_settings: null,
        schema_cache: '[]',
        schema_version: 1,
        silent_tls: 'verify',
        created_at: now(),
        updated_at: now(),
      })
      .execute()
    await seedDemo(t.app.services, t.app.log)
    expect(await storedPath(t)).toBe(DEMO.folder)
    expect(await tables(t)).toEqual(['customers', 'orders'])
  })
})
