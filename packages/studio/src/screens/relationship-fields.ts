import type { IntrospectedTable } from '@strata/contract/studio'
import { html, nothing, type TemplateResult } from 'lit'
import type { JoinType, RelationshipInput } from '../api/client.js'
import { tableKey } from './table-key.js'

/** One relationship being edited: `left <joinType> right` (the API's parent and child). */
export interface Relationship {
  /** Stable across removals (ids and keyed rendering). */
  readonly id: number
  leftTable: string
  leftColumn: string
  rightTable: string
  rightColumn: string
  joinType: JoinType
  /** Kept as stored when an existing datamart is edited (the form does not show them). */
  readonly name?: string
  readonly cardinality?: string
}

export const JOIN_TYPES: readonly { value: JoinType; label: string }[] = [
  { value: 'LEFT JOIN', label: 'Left join: every left row, matched right rows' },
  { value: 'INNER JOIN', label: 'Inner join: matched rows only' },
  { value: 'RIGHT JOIN', label: 'Right join: every right row, matched left rows' },
  { value: 'FULL JOIN', label: 'Full join: every row of both' },
]

const key = (t: IntrospectedTable) => tableKey(t.schema, t.name)
const singular = (name: string) => name.replace(/ies$/, 'y').replace(/s$/, '')

/**
 * A first guess for a new relationship between two picked tables: `b.<a>_id = a.id` (or the
 * other way round) when such columns exist, else each table's first column.
 */
export function guessRelationship(id: number, tables: readonly IntrospectedTable[]): Relationship {
  const [a, b = a] = tables
  if (!a || !b) return { id, leftTable: '', leftColumn: '', rightTable: '', rightColumn: '', joinType: 'LEFT JOIN' }
  const has = (t: IntrospectedTable, c: string) => t.columns.some((x) => x.name === c)
  for (const [one, many] of [
    [a, b],
    [b, a],
  ] as const) {
    const fk = `${singular(one.name)}_id`
    if (one !== many && has(one, 'id') && has(many, fk)) {
      return {
        id,
        leftTable: key(many),
        leftColumn: fk,
        rightTable: key(one),
        rightColumn: 'id',
        joinType: 'LEFT JOIN',
      }
    }
  }
  return {
    id,
    leftTable: key(a),
    leftColumn: a.columns[0]?.name ?? '',
    rightTable: key(b),
    rightColumn: b.columns[0]?.name ?? '',
    joinType: 'LEFT JOIN',
  }
}

/** The API's shape of a relationship. */
export const relationshipInput = (r: Relationship): RelationshipInput => ({
  parentTable: r.leftTable,
  parentColumn: r.leftColumn,
  childTable: r.rightTable,
  childColumn: r.rightColumn,
  joinType: r.joinType,
  ...(r.name ? { name: r.name } : {}),
  ...(r.cardinality ? { cardinality: r.cardinality } : {}),
})

export interface RelationshipView {
  readonly index: number
  readonly relationship: Relationship
  /** The datamart's picked tables (the pickers offer these and their columns). */
  readonly tables: readonly IntrospectedTable[]
  readonly fullJoin: boolean
  readonly datasourceType: string
  /** The server's refusal of this relationship, shown beside it. */
  readonly error: string | undefined
  readonly changed: () => void
  readonly remove: () => void
}

/** The fields of one relationship: left table and column, the join, right table and column. */
export function relationshipFields(v: RelationshipView): TemplateResult {
  const r = v.relationship
  const id = `rel-${r.id}`
  const columnsOf = (table: string) => v.tables.find((t) => key(t) === table)?.columns ?? []
  const side = (which: 'left' | 'right') => {
    const tableKey = which === 'left' ? 'leftTable' : 'rightTable'
    const columnKey = which === 'left' ? 'leftColumn' : 'rightColumn'
    const word = which === 'left' ? 'Left' : 'Right'
    return html`<div class="rel-side">
      <div class="field"><label for="${id}-${which}-table">${word} table</label>
        <select id="${id}-${which}-table" @change=${(e: Event) => {
          r[tableKey] = (e.target as HTMLSelectElement).value
          r[columnKey] = columnsOf(r[tableKey])[0]?.name ?? ''
          v.changed()
        }}>${v.tables.map((t) => html`<option value=${key(t)} ?selected=${key(t) === r[tableKey]}>${key(t)}</option>`)}</select></div>
      <div class="field"><label for="${id}-${which}-column">${word} column</label>
        <select id="${id}-${which}-column" @change=${(e: Event) => {
          r[columnKey] = (e.target as HTMLSelectElement).value
          v.changed()
        }}>${columnsOf(r[tableKey]).map(
          (c) => html`<option value=${c.name} ?selected=${c.name === r[columnKey]}>${c.name} (${c.dataType})</option>`,
        )}</select></div></div>`
  }
  return html`<fieldset class="relationship ${v.error ? 'invalid' : ''}" aria-describedby=${v.error ? `${id}-error` : nothing}>
    <legend>Relationship ${v.index + 1}</legend>
    <div class="rel-grid">
      ${side('left')}
      ${side('right')}
      <div class="field rel-join"><label for="${id}-join">Join</label>
        <select id="${id}-join" aria-describedby="${id}-join-hint" @change=${(e: Event) => {
          r.joinType = (e.target as HTMLSelectElement).value as JoinType
          v.changed()
        }}>${JOIN_TYPES.map(
          (j) =>
            html`<option value=${j.value} ?selected=${j.value === r.joinType} ?disabled=${j.value === 'FULL JOIN' && !v.fullJoin}>${j.label}${
              j.value === 'FULL JOIN' && !v.fullJoin ? ` (not on ${v.datasourceType})` : ''
            }</option>`,
        )}</select>
        <small id="${id}-join-hint">Joins on ${r.leftTable || 'left'}.${r.leftColumn} = ${r.rightTable || 'right'}.${r.rightColumn}</small></div>
    </div>
    ${v.error ? html`<p class="field-error" id="${id}-error" role="alert">${v.error}</p>` : nothing}
    <button type="button" @click=${v.remove} aria-label="Remove relationship ${v.index + 1}">Remove</button>
  </fieldset>`
}
