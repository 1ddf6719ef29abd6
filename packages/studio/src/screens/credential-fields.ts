import type { CredentialField } from '@strata/contract/studio'
import { html, nothing, type TemplateResult } from 'lit'

/**
 * One input per credential field, drawn from the type's published description: a secret is a
 * password input never filled in, a long text a textarea, a choice a select.
 */
export function credentialInput(field: CredentialField): TemplateResult {
  const id = `cred-${field.name}`
  const hint = html`<small id="${id}-hint">${field.description}</small>`
  const label = html`<label for=${id}>${field.label}</label>${field.required ? html` <span class="req" aria-hidden="true">*</span>` : nothing}`
  switch (field.kind) {
    case 'boolean':
      return html`<div class="field"><label class="check"><input type="checkbox" name=${field.name} id=${id}
        ?checked=${field.default === true} aria-describedby="${id}-hint" />${field.label}</label>${hint}</div>`
    case 'choice':
      return html`<div class="field">${label}<select name=${field.name} id=${id} ?required=${field.required}
        aria-describedby="${id}-hint">${field.required ? nothing : html`<option value="">—</option>`}
        ${(field.options ?? []).map((o) => html`<option value=${o}>${o}</option>`)}</select>${hint}</div>`
    case 'integer':
      return html`<div class="field">${label}<input type="number" inputmode="numeric" name=${field.name} id=${id}
        min=${field.minimum ?? nothing} max=${field.maximum ?? nothing} ?required=${field.required}
        aria-describedby="${id}-hint" />${hint}</div>`
    case 'longText':
      return html`<div class="field">${label}<textarea name=${field.name} id=${id} ?required=${field.required && !field.secret}
        spellcheck="false" autocomplete="off" aria-describedby="${id}-hint"></textarea>${hint}</div>`
    case 'text':
      return html`<div class="field">${label}<input name=${field.name} id=${id}
        type=${field.secret ? 'password' : 'text'} autocomplete=${field.secret ? 'new-password' : 'off'}
        ?required=${field.required && !field.secret} spellcheck="false" aria-describedby="${id}-hint" />${hint}</div>`
  }
}

/** The credentials object from the form: typed values, optional fields left empty omitted. */
export function readCredentials(form: HTMLFormElement, fields: readonly CredentialField[]): Record<string, unknown> {
  const data = new FormData(form)
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    if (f.kind === 'boolean') {
      const checked = data.get(f.name) !== null
      if (checked || f.required || f.default !== undefined) out[f.name] = checked
      continue
    }
    const raw = String(data.get(f.name) ?? '')
    if (raw === '' && !(f.required && f.secret)) continue
    out[f.name] = f.kind === 'integer' ? Number(raw) : raw
  }
  return out
}
