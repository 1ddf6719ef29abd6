import { badRequest } from '../../errors.js'
import { col, type Expr, exactEq, inSubquery, item, type Param, select, type TableSource, table } from '../ast.js'
import { plainValue } from '../bind.js'
import type { Dialect } from '../dialects/base.js'
import { type ModelTable, resolveTable, type SemanticModel } from '../model.js'
import type { TableTenancy, Tenancy } from './tenancy.js'

/** Refuses a tenancy that names no tenant (400): a compiler never runs it. */
export function assertTenancy(tenancy: Tenancy): void {
  if (tenancy.kind === 'database' && (typeof tenancy.database !== 'string' || tenancy.database === '')) {
    throw badRequest('DATABASE tenancy needs a database name')
  }
  if (tenancy.kind === 'table' && typeof plainValue(tenancy.clientId) !== 'string') {
    throw badRequest('TABLE tenancy needs a clientId string')
  }
}

/** A model table as the statement reads it: from the tenant's database under DATABASE tenancy where the engine's schema is a database. */
export function tenantTable(tenancy: Tenancy, dialect: Dialect, t: ModelTable, alias: string): TableSource {
  const schema = tenancy.kind === 'database' && dialect.schemaIsDatabase ? tenancy.database : t.schema
  return table(schema, t.name, alias)
}

/** The client column of a table under TABLE tenancy (the embed's tableTenancySettings first, then the model's); undefined when it has none. */
export function clientColumnOf(tenancy: TableTenancy, t: ModelTable): string | undefined {
  const column = tenancy.clientColumns?.get(t.key) ?? t.clientColumn
  return column === '' ? undefined : column
}

/**
 * The tenant's rows of one table read as `alias`: `alias.client = :clientId` (the comparison
 * exact as the dialect makes it), or, with a tenancy table, the client column in that table's
 * keys of the tenant's name. null when the table has no client column.
 */
export function tenantCondition(
  tenancy: TableTenancy,
  model: SemanticModel,
  dialect: Dialect,
  t: ModelTable,
  alias: string,
  clientId: Param,
): Expr | null {
  const column = clientColumnOf(tenancy, t)
  if (column === undefined) return null
  const ref = col(alias, column)
  const tt = tenancy.tenancyTable
  if (tt === undefined) return exactEq(ref, clientId, t.columns.get(column)?.nativeType)
  const lookupTable = resolveTable(model, tt.table, 'tenancySettings.tableName')
  const lookup = select({
    items: [item(col('tt', tt.primaryKeyColumn), tt.primaryKeyColumn)],
    from: tenantTable(tenancy, dialect, lookupTable, 'tt'),
    where: exactEq(col('tt', tt.clientNameColumn), clientId, lookupTable.columns.get(tt.clientNameColumn)?.nativeType),
  })
  return inSubquery(ref, lookup, tt.primaryKeyColumn)
}
