import type { Bound } from '../bind.js'

/**
 * The tenancy one compiled statement is under: none, a row filter on each table's client column
 * (TABLE), or the tenant's own database (DATABASE). Decided once per request (decide.ts) and
 * applied by the compilers (scope.ts).
 */
export type Tenancy =
  | { readonly kind: 'none' }
  | TableTenancy
  | { readonly kind: 'database'; readonly database: string }

export interface TableTenancy {
  readonly kind: 'table'
  /** The tenant; a `Bound` when the statement is to be rebound per tenant (bind.ts). */
  readonly clientId: string | Bound
  /** Client columns by canonical table (the embed's tableTenancySettings); win over the model's. */
  readonly clientColumns?: ReadonlyMap<string, string>
  /** The datasource's TABLE tenancySettings: client columns hold the tenancy table's primary key. */
  readonly tenancyTable?: {
    readonly table: string
    readonly clientNameColumn: string
    readonly primaryKeyColumn: string
  }
}
