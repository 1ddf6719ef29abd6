import type { DatasourceTypeInfo } from '@strata/contract/studio'
import { html, nothing } from 'lit'
import { StudioError } from '../api/errors.js'
import { go, messageOf, StudioElement } from '../ui/base.js'
import { credentialInput, type FieldError, readCredentials, type StoredCredentials } from './credential-fields.js'

/**
 * `<studio-datasource-form>`: a new datasource, or the edit of one (`editing`: its name). The
 * form is drawn from the type's credential description (GET /api/v2/datasource/types); on edit
 * it starts from the stored values without any secret (GET /api/v2/datasource/credentials),
 * and a secret left empty is not sent, so the server keeps it. Saving tests the connection and
 * reads the tables before anything is stored; a refused field is named under its input.
 */
export class StudioDatasourceForm extends StudioElement {
  static override properties = {
    editing: { attribute: false },
    types: { state: true },
    type: { state: true },
    stored: { state: true },
    error: { state: true },
    fieldError: { state: true },
    busy: { state: true },
  }
  editing = ''
  types: DatasourceTypeInfo[] = []
  type = 'postgres'
  stored: StoredCredentials | undefined
  error = ''
  fieldError: FieldError | undefined
  busy = false

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    void this.load()
  }

  private async load(): Promise<void> {
    try {
      const [types, settings] = await Promise.all([
        this.api.datasourceTypes(),
        this.editing ? this.api.datasourceSettings(this.editing) : undefined,
      ])
      if (settings) {
        this.type = settings.datasourceType
        this.stored = { values: settings.credentials, secrets: new Set(settings.storedSecrets) }
      }
      this.types = types
    } catch (err) {
      this.error = messageOf(err)
    }
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    const info = this.types.find((t) => t.datasourceType === this.type)
    if (!info) return
    const form = e.target as HTMLFormElement
    const name = this.editing || String(new FormData(form).get('name') ?? '')
    const credentials = { name, ...readCredentials(form, info.fields, this.stored?.secrets) }
    this.busy = true
    this.error = ''
    this.fieldError = undefined
    try {
      await this.api.saveDatasource(this.editing ? 'PUT' : 'POST', this.type, credentials)
      go(`datasources/${encodeURIComponent(name)}${this.editing ? '?saved' : ''}`)
    } catch (err) {
      this.error = messageOf(err)
      const field = err instanceof StudioError ? err.field : undefined
      if (field?.startsWith('credentials.') && err instanceof StudioError) {
        // the server's sentence, with the fields by their names in the form
        this.fieldError = { field, message: err.apiMessage.replaceAll('credentials.', '') }
      }
      await this.updateComplete
      const input = field
        ? this.querySelector<HTMLElement>(`#cred-${CSS.escape(field.slice('credentials.'.length))}`)
        : null
      if (input) {
        input.closest('details')?.setAttribute('open', '')
        input.focus()
      } else this.querySelector<HTMLElement>('[role=alert]')?.focus()
    } finally {
      this.busy = false
    }
  }

  override render() {
    const info = this.types.find((t) => t.datasourceType === this.type)
    const fields = (info?.fields ?? []).filter((f) => f.name !== 'name')
    const required = fields.filter((f) => f.required)
    const optional = fields.filter((f) => !f.required)
    const editing = this.editing
    const back = editing ? `#/datasources/${encodeURIComponent(editing)}` : '#/datasources'
    const input = (f: (typeof fields)[number]) => credentialInput(f, this.stored, this.fieldError)
    // on edit, the options that hold a value (or were refused) are shown open
    const openOptions = optional.some(
      (f) =>
        this.fieldError?.field === `credentials.${f.name}` ||
        this.stored?.secrets.has(f.name) ||
        (this.stored?.values[f.name] !== undefined && f.kind !== 'boolean'),
    )
    if (editing && !this.stored) {
      return html`<h1 tabindex="-1">Edit ${editing}</h1>
        <p><a href=${back}>Back to ${editing}</a></p>
        ${this.error ? html`<p class="notice error" role="alert" tabindex="-1">${this.error}</p>` : html`<p role="status">Loading the stored settings…</p>`}`
    }
    return html`<h1 tabindex="-1">${editing ? `Edit ${editing}` : 'Add a datasource'}</h1>
      <p class="lead">${
        editing
          ? 'Change how Strata reaches this datasource. Secrets are never shown: leave a stored one empty to keep it. Saving tests the connection first; nothing changes if it fails.'
          : html`Pick the type, then fill in how Strata reaches it. Fields marked <span class="req">*</span> are required.`
      }</p>
      <p><a href=${back}>${editing ? `Back to ${editing}` : 'Back to datasources'}</a></p>
      ${this.error ? html`<p class="notice error" role="alert" tabindex="-1">${this.error}</p>` : nothing}
      <form @submit=${this.submit} aria-label=${editing ? `Edit datasource ${editing}` : 'New datasource'}>
        <label class="field"><span>Type</span>
          <select name="datasourceType" .value=${this.type} ?disabled=${Boolean(editing)} @change=${(e: Event) => {
            this.type = (e.target as HTMLSelectElement).value
          }}>${this.types.map(
            (t) =>
              html`<option value=${t.datasourceType} ?selected=${t.datasourceType === this.type}>${t.title.replace(/ credentials$/, '')}${t.supported ? '' : ' (not connectable here)'}</option>`,
          )}</select></label>
        ${info && !info.supported ? html`<p class="notice info">This server validates ${info.title} but cannot connect to it yet.</p>` : nothing}
        ${
          editing
            ? nothing
            : html`<div class="field"><label for="ds-name">Name</label> <span class="req" aria-hidden="true">*</span>
          <input id="ds-name" name="name" required maxlength="100" aria-describedby="name-hint" spellcheck="false" />
          <small id="name-hint">How datamarts and workspaces refer to it; unique, case-sensitive.</small></div>`
        }
        ${required.map(input)}
        ${
          optional.length > 0
            ? html`<details ?open=${openOptions}><summary class="button">More options (${optional.length})</summary>
                <div class="actions"></div>${optional.map(input)}</details>`
            : nothing
        }
        <div class="actions">
          <button class="primary" type="submit" ?disabled=${this.busy || !info}>
            ${this.busy ? 'Testing the connection and reading the tables…' : editing ? 'Test connection and save changes' : 'Test connection and save'}</button>
          <a class="button" href=${back}>Cancel</a>
        </div>
        ${this.busy ? html`<p role="status" class="muted">Connecting to the database; this can take a few seconds.</p>` : nothing}
      </form>`
  }
}
