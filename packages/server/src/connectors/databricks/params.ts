/**
 * ExecuteOptions.params → the Statement Execution API's `parameters`: params[i] is bound to the
 * named marker `:p<i>` as `{ name, value, type }`. The value travels as a string and the warehouse
 * casts it to `type` with the `cast` function's rules; an omitted value is NULL; complex types
 * (ARRAY, MAP, STRUCT) cannot be bound (docs.databricks.com/api/workspace/statementexecution).
 * Values never enter the statement text.
 */
import { badRequest } from '../../errors.js'

export interface StatementParameter {
  readonly name: string
  readonly value?: string
  readonly type?: string
}

export function statementParameters(params: readonly unknown[]): StatementParameter[] {
  return params.map((value, i) => parameter(`p${i}`, value))
}

function parameter(name: string, value: unknown): StatementParameter {
  if (value === null || value === undefined) return { name }
  if (typeof value === 'string') return { name, value, type: 'STRING' }
  if (typeof value === 'boolean') return { name, value: String(value), type: 'BOOLEAN' }
  if (typeof value === 'bigint') {
    const inBigint = value >= -(2n ** 63n) && value < 2n ** 63n
    return { name, value: value.toString(), type: inBigint ? 'BIGINT' : 'DECIMAL(38,0)' }
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw badRequest('A number value must be finite')
    return Number.isSafeInteger(value)
      ? { name, value: String(value), type: 'BIGINT' }
      : { name, value: String(value), type: 'DOUBLE' }
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw badRequest('A date value must be a valid date')
    return { name, value: value.toISOString(), type: 'TIMESTAMP' }
  }
  throw badRequest('A value must be a string, number, boolean or date (Databricks binds no lists or objects)')
}
