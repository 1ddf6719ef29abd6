import type { CredentialField } from '@strata/contract/studio'
import { html, nothing, type TemplateResult } from 'lit'

/** What an edit form starts from: the stored non-secret values, and which secrets are stored. */
export interface StoredCredentials {
  readonly values: Readonly<Record<string, unknown>>
  readonly secrets: ReadonlySet<string>
}

/** The error the server named for one field, shown under it. */
export interface FieldError {
  readonly field: string
  readonly message: string
}

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '')

/**
 * One input per credential field, drawn from the type's published description: a secret is a
 * password input never filled in (when one is stored it says so, and empty keeps it), a long
 * text a textarea, a choice a select. On edit, the other fields start from the stored values.
 */
export function credentialInput(
  field: CredentialField,
  stored?: StoredCredentials,
  error?: FieldError,
): TemplateResult {
  const id = `cred-${field.name}`
  const kept = field.secret && stored?.secrets.has(field.name) === true
  const value = field.secret ? '' : text(stored?.values[field.name])
  const failed = error?.field === `credentials.${field.name}`
  const described = failed ? `${id}-error ${id}-hint` : `${id}-hint`
  const hint = html`<small id="${id}-hint">${kept ? html`<strong>Stored — leave empty to keep it.</strong> ` : nothing}${field.description}</small>${
    failed ? html`<small class="field-error" id="${id}-error">${error?.message}</small>` : nothing
  }`
  const label = html`<label for=${id}>${field.label}</label>${field.required && !kept ? html` <span class="req" aria-hidden="true">*</span>` : nothing}`
  const invalid = failed ? 'true' : nothing
  switch (field.kind) {
    case 'boolean': {
      const on =
        stored && Object.hasOwn(stored.values, field.name) ? stored.values[field.name] === true : field.default === true
      return html`<div class="field"><label class="check"><input type="checkbox" name=${field.name} id=${id}
        ?checked=${on} aria-invalid=${invalid} aria-describedby=${described} />${field.label}</label>${hint}</div>`
    }
    case 'choice':
      return html`<div class="field">${label}<select name=${field.name} id=${id} ?required=${field.required}
        aria-invalid=${invalid} aria-describedby=${described}>${field.required ? nothing : html`<option value="">—</option>`}
        ${(field.options ?? []).map((o) => html`<option value=${o} ?selected=${o === value}>${o}</option>`)}</select>${hint}</div>`
    case 'integer':
      return html`<div class="field">${label}<input type="number" inputmode="numeric" name=${field.name} id=${id}
        .value=${value} min=${field.minimum ?? nothing} max=${field.maximum ?? nothing} ?required=${field.required}
        aria-invalid=${invalid} aria-describedby=${described} />${hint}</div>`
    case 'longText':
      return html`<div class="field">${label}<textarea name=${field.name} id=${id} ?required=${field.required && !field.secret}
        .value=${value} spellcheck="false" autocomplete="off" aria-invalid=${invalid} aria-describedby=${described}
        placeholder=${kept ? 'Stored — leave empty to keep' : nothing}></textarea>${hint}</div>`
    case 'text':
      return html`<div class="field">${label}<input name=${field.name} id=${id} .value=${value}
        type=${field.secret ? 'password' : 'text'} autocomplete=${field.secret ? 'new-password' : 'off'}
        placeholder=${kept ? 'Stored — leave empty to keep' : nothing}
        ?required=${field.required && !field.secret} spellcheck="false" aria-invalid=${invalid} aria-describedby=${described} />${hint}</div>`
  }
}

/**
 * The credentials object from the form: typed values, optional fields left empty omitted. A
 * secret left empty whose value is stored (`keep`) is omitted too: the server keeps it.
 */
export function readCredentials(
  form: HTMLFormElement,
  fields: readonly CredentialField[],
  keep: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const data = new FormData(form)
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    if (f.kind === 'boolean') {
      const checked = data.get(f.name) !== null
      if (checked || f.required || f.default !== undefined) out[f.name] = checked
      continue
    }
    const raw = String(data.get(f.name) ?? '')
    if (raw === '' && (keep.has(f.name) || !(f.required && f.secret))) continue
    out[f.name] = f.kind === 'integer' ? Number(raw) : raw
  }
  return out
}
