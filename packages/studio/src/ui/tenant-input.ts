import { html, nothing } from 'lit'
import { dashboardsApi, type TenantPage } from '../api/dashboards.js'
import { messageOf, StudioElement } from './base.js'

/** Waits this long after a keystroke before it searches. */
const SEARCH_DELAY_MS = 250

/**
 * `<studio-tenant-input>`: the `clientId` field of a form (name `clientId`), offering the
 * workspace's tenants as the browser's own suggestion list (a `datalist`: searchable by typing,
 * arrow keys to pick, and any other text still allowed). Up to 100 suggestions are read from
 * the server and searched there as the author types; the line under the field says where they
 * come from, or that the workspace has no tenancy.
 */
export class StudioTenantInput extends StudioElement {
  static override properties = {
    workspaceName: { attribute: false },
    inputId: { attribute: false },
    value: { attribute: false },
    describedBy: { attribute: false },
    page: { state: true },
    error: { state: true },
  }
  workspaceName = ''
  inputId = 'tenant'
  value = ''
  /** Ids of the form's own hints, read with the field. */
  describedBy = ''
  page: TenantPage | undefined
  error = ''
  private calls = 0
  private timer: ReturnType<typeof setTimeout> | undefined

  override connectedCallback(): void {
    super.connectedCallback()
    void this.search('')
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    clearTimeout(this.timer)
  }

  private async search(text: string): Promise<void> {
    const call = ++this.calls
    try {
      const page = await dashboardsApi(this.api).tenants(this.workspaceName, text.trim())
      if (call !== this.calls) return
      this.page = page
      this.error = ''
    } catch (err) {
      if (call === this.calls) this.error = messageOf(err)
    }
  }

  private typed = (e: Event): void => {
    const text = (e.target as HTMLInputElement).value
    this.value = text
    clearTimeout(this.timer)
    // a value picked from the list is one of the page already shown: no search
    if (this.page?.values.includes(text)) return
    this.timer = setTimeout(() => void this.search(text), SEARCH_DELAY_MS)
  }

  private hint(): string {
    if (this.error) return `The tenant list could not be read (${this.error}); type the tenant.`
    const page = this.page
    if (!page) return 'Reading the tenants…'
    if (page.source === 'none') return 'This workspace has no tenant column: any clientId sees every row.'
    const from = page.source === 'database' ? "the datasource's databases" : page.column
    if (page.values.length === 0) return `No tenant in ${from} matches: check the spelling, or type it whole.`
    const count = `${page.values.length} ${page.values.length === 1 ? 'tenant' : 'tenants'}`
    if (page.nextCursor) return `The first ${count} of ${from}: type to narrow, or type any other value.`
    return `${count} in ${from}: pick one from the list, or type any other value.`
  }

  override render() {
    const listId = `${this.inputId}-list`
    const hintId = `${this.inputId}-source`
    return html`<input id=${this.inputId} name="clientId" required maxlength="500" spellcheck="false" autocomplete="off"
        list=${listId} .value=${this.value} @input=${this.typed}
        aria-describedby=${[this.describedBy, hintId].filter(Boolean).join(' ')} />
      <datalist id=${listId}>${(this.page?.values ?? []).map((v) => html`<option value=${v}></option>`)}</datalist>
      <small id=${hintId} class="tenant-source" aria-live="polite">${this.hint()}</small>${nothing}`
  }
}
