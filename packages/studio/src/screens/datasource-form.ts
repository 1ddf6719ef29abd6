import type { DatasourceTypeInfo } from '@strata/contract/studio'
import { html, nothing } from 'lit'
import { go, messageOf, StudioElement } from '../ui/base.js'
import { credentialInput, readCredentials } from './credential-fields.js'

/**
 * `<studio-datasource-form>`: a new datasource. The form is drawn from the chosen type's
 * credential description (GET /api/v2/datasource/types); saving tests the connection and reads
 * the tables before anything is stored.
 */
export class StudioDatasourceForm extends StudioElement {
  static override properties = {
    types: { state: true },
    type: { state: true },
    error: { state: true },
    busy: { state: true },
  }
  types: DatasourceTypeInfo[] = []
  type = 'postgres'
  error = ''
  busy = false

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    this.api.datasourceTypes().then(
      (types) => {
        this.types = types
      },
      (err) => {
        this.error = messageOf(err)
      },
    )
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    const info = this.types.find((t) => t.datasourceType === this.type)
    if (!info) return
    const form = e.target as HTMLFormElement
    const credentials = { name: String(new FormData(form).get('name') ?? ''), ...readCredentials(form, info.fields) }
    this.busy = true
    this.error = ''
    try {
      await this.api.saveDatasource('POST', this.type, credentials)
      go(`datasources/${encodeURIComponent(credentials.name)}`)
    } catch (err) {
      this.error = messageOf(err)
      await this.updateComplete
      this.querySelector<HTMLElement>('[role=alert]')?.focus()
    } finally {
      this.busy = false
    }
  }

  override render() {
    const info = this.types.find((t) => t.datasourceType === this.type)
    const fields = (info?.fields ?? []).filter((f) => f.name !== 'name')
    const required = fields.filter((f) => f.required)
    const optional = fields.filter((f) => !f.required)
    return html`<h1 tabindex="-1">Add a datasource</h1>
      <p class="lead">Pick the type, then fill in how Strata reaches it. Fields marked <span class="req">*</span> are required.</p>
      <p><a href="#/datasources">Back to datasources</a></p>
      ${this.error ? html`<p class="notice error" role="alert" tabindex="-1">${this.error}</p>` : nothing}
      <form @submit=${this.submit} aria-label="New datasource">
        <label class="field"><span>Type</span>
          <select name="datasourceType" .value=${this.type} @change=${(e: Event) => {
            this.type = (e.target as HTMLSelectElement).value
          }}>${this.types.map(
            (t) =>
              html`<option value=${t.datasourceType} ?selected=${t.datasourceType === this.type}>${t.title.replace(/ credentials$/, '')}${t.supported ? '' : ' (not connectable here)'}</option>`,
          )}</select></label>
        ${info && !info.supported ? html`<p class="notice info">This server validates ${info.title} but cannot connect to it yet.</p>` : nothing}
        <div class="field"><label for="ds-name">Name</label> <span class="req" aria-hidden="true">*</span>
          <input id="ds-name" name="name" required maxlength="100" aria-describedby="name-hint" spellcheck="false" />
          <small id="name-hint">How datamarts and workspaces refer to it; unique, case-sensitive.</small></div>
        ${required.map(credentialInput)}
        ${
          optional.length > 0
            ? html`<details><summary class="button">More options (${optional.length})</summary>
                <div class="actions"></div>${optional.map(credentialInput)}</details>`
            : nothing
        }
        <div class="actions">
          <button class="primary" type="submit" ?disabled=${this.busy || !info}>
            ${this.busy ? 'Testing the connection and reading the tables…' : 'Test connection and save'}</button>
          <a class="button" href="#/datasources">Cancel</a>
        </div>
        ${this.busy ? html`<p role="status" class="muted">Connecting to the database; this can take a few seconds.</p>` : nothing}
      </form>`
  }
}
