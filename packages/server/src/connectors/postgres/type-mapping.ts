import type { DataType } from '../types.js'

/** Result columns: the built-in type OIDs (stable across Postgres, Redshift and CockroachDB). */
const BY_OID: Readonly<Record<number, DataType>> = {
  16: 'boolean',
  20: 'integer', // int8
  21: 'integer', // int2
  23: 'integer', // int4
  26: 'integer', // oid
  700: 'number', // float4
  701: 'number', // float8
  1700: 'number', // numeric
  18: 'string', // char
  19: 'string', // name
  25: 'string', // text
  1042: 'string', // bpchar
  1043: 'string', // varchar
  2950: 'string', // uuid
  790: 'string', // money, rendered with its currency sign
  1083: 'string', // time
  1266: 'string', // timetz
  1186: 'string', // interval
  17: 'string', // bytea, as its \x… text
  1082: 'date',
  1114: 'datetime', // timestamp
  1184: 'datetime', // timestamptz
  114: 'json',
  3802: 'json', // jsonb
}

/** Array types come back as JS arrays. */
const ARRAY_OIDS = new Set([
  1000, 1005, 1007, 1016, 1021, 1022, 1231, 1009, 1015, 1014, 2951, 1182, 1115, 1185, 199, 3807,
])

export function dataTypeOfOid(oid: number): DataType {
  return BY_OID[oid] ?? (ARRAY_OIDS.has(oid) ? 'json' : 'unknown')
}

/** Introspection: `information_schema.columns.data_type` (or `udt_name` for arrays and user types). */
export function dataTypeOfName(nativeType: string): DataType {
  const t = nativeType.toLowerCase().trim()
  if (t.endsWith('[]') || t === 'array' || t.startsWith('_')) return 'json'
  if (t === 'boolean' || t === 'bool') return 'boolean'
  if (/^(smallint|integer|bigint|int[248]?|oid|smallserial|serial|bigserial)$/.test(t)) return 'integer'
  if (/^(numeric|decimal|real|double precision|float[48]?)\b/.test(t)) return 'number'
  if (t === 'date') return 'date'
  if (t.startsWith('timestamp')) return 'datetime'
  if (t === 'json' || t === 'jsonb') return 'json'
  if (/^(text|character|char|varchar|bpchar|name|uuid|citext|money|time|interval|bytea|inet|cidr|macaddr)/.test(t)) {
    return 'string'
  }
  return 'unknown'
}
