import { html, nothing } from 'lit'
import type { ApiKeyItem } from '../api/client.js'
import { cell, copyText, messageOf, StudioElement } from '../ui/base.js'
import { confirmDialog, showConfirm } from '../ui/confirm.js'
import { originProblem } from './origin.js'

/**
 * `<studio-data-app>`: one data app's API keys (list without their secret, create one shown
 * once, revoke) and the whitelist of origins allowed to show its embeds.
 */
export class StudioDataAppDetail extends StudioElement {
  static override properties = {
    name: { type: String },
    keys: { state: true },
    origins: { state: true },
    error: { state: true },
    originError: { state: true },
    status: { state: true },
    fresh: { state: true },
    copied: { state: true },
    revoking: { state: true },
    busy: { state: true },
  }
  name = ''
  keys: ApiKeyItem[] | undefined
  origins: string[] | undefined
  error = ''
  originError = ''
  status = ''
  /** The key just created: in this element only while it is shown. */
  fresh: { name: string; key: string } | undefined
  copied = false
  revoking = ''
  busy = false

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    void this.load()
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    this.fresh = undefined // the secret leaves memory with the screen
  }

  private async load(): Promise<void> {
    try {
      const [keys, origins] = await Promise.all([this.api.apiKeys(this.name), this.api.whitelist(this.name)])
      this.keys = keys
      this.origins = origins
    } catch (err) {
      this.error = messageOf(err)
    }
  }

  private async createKey(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    const form = e.target as HTMLFormElement
    const data = new FormData(form)
    this.busy = true
    this.error = ''
    this.copied = false
    try {
      const keyName = String(data.get('keyName') ?? '').trim()
      const key = await this.api.createApiKey(this.name, keyName, String(data.get('description') ?? '').trim())
      this.fresh = { name: keyName, key }
      form.reset()
      this.keys = await this.api.apiKeys(this.name)
      await this.updateComplete
      this.querySelector<HTMLElement>('#fresh-key-heading')?.focus()
    } catch (err) {
      this.error = messageOf(err)
    } finally {
      this.busy = false
    }
  }

  /** The control that opened the confirmation, to give the focus back to when it closes. */
  private opener: HTMLElement | undefined

  private async askRevoke(key: string, e: Event): Promise<void> {
    this.opener = e.currentTarget as HTMLElement
    this.revoking = key
    await this.updateComplete
    showConfirm(this)
  }

  private async keepKey(): Promise<void> {
    this.revoking = ''
    await this.updateComplete
    this.opener?.focus()
  }

  private async revoke(key: string): Promise<void> {
    this.busy = true
    this.error = ''
    try {
      await this.api.revokeApiKey(this.name, key)
      this.revoking = ''
      this.keys = await this.api.apiKeys(this.name)
      this.status = `Key ${key} is revoked, with every guest token it minted.`
      // its row is gone: the focus goes to the form that creates the next key
      await this.updateComplete
      this.querySelector<HTMLElement>('#key-name')?.focus()
    } catch (err) {
      this.revoking = ''
      this.error = messageOf(err)
    } finally {
      this.busy = false
    }
  }

  private async copy(): Promise<void> {
    if (!this.fresh) return
    const refused = await copyText(this.fresh.key, 'the key')
    if (refused) this.error = refused
    else this.copied = true
  }

  private async saveOrigins(next: string[], said: string): Promise<boolean> {
    this.error = ''
    try {
      this.origins = await this.api.setWhitelist(this.name, next)
      this.status = said
      return true
    } catch (err) {
      this.originError = messageOf(err)
      return false
    }
  }

  private async addOrigin(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    const form = e.target as HTMLFormElement
    const value = String(new FormData(form).get('origin') ?? '').trim()
    this.originError = originProblem(value)
    if (this.originError) {
      form.querySelector<HTMLInputElement>('input')?.focus()
      return
    }
    if (await this.saveOrigins([...(this.origins ?? []), value], `${value} may now show the embeds.`)) form.reset()
  }

  override render() {
    return html`<p><a href="#/data-apps">← Data apps</a></p>
      <h1 tabindex="-1">${this.name}</h1>
      <p class="lead">What your backend uses to mint guest tokens, and where the embeds may be shown.</p>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      <p class="sr-only" role="status">${this.status}</p>
      ${this.renderKeys()}
      ${this.renderWhitelist()}`
  }

  private renderKeys() {
    return html`<h2>API keys</h2>
      <p class="muted">A key is secret: it lives in your backend's secrets and mints guest tokens. The studio shows it once, when it is created; afterwards only its id.
        Rotate by creating a new key, deploying it, then revoking the old one.</p>
      ${
        this.fresh
          ? html`<section class="notice ok" aria-labelledby="fresh-key-heading">
              <h3 id="fresh-key-heading" tabindex="-1">New key ${this.fresh.name}</h3>
              <p><strong>This is the only time the key is shown.</strong> Copy it into your backend's secrets (STRATA_DATA_APP_KEY) now; it cannot be shown again.</p>
              <p class="secret" data-testid="fresh-key">${this.fresh.key}</p>
              <div class="actions"><button @click=${this.copy}>${this.copied ? 'Copied' : 'Copy the key'}</button>
                <button @click=${() => (this.fresh = undefined)}>I have saved it</button></div>
              <p class="sr-only" role="status">${this.copied ? 'Key copied to the clipboard' : ''}</p>
            </section>`
          : nothing
      }
      ${
        this.keys === undefined
          ? this.error
            ? nothing
            : html`<p role="status">Loading…</p>`
          : this.keys.length === 0
            ? html`<div class="empty"><strong>No key left</strong><p>Create one below: your backend cannot mint guest tokens without one.</p></div>`
            : html`<div class="table-wrap"><table class="stack"><caption class="sr-only">API keys of ${this.name}</caption>
              <thead><tr><th scope="col">Name</th><th scope="col">Key id</th><th scope="col">Created</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>${this.keys.map(
                (
                  k,
                ) => html`<tr>${cell('Name', html`${k.name}${k.description ? html`<br /><span class="muted">${k.description}</span>` : nothing}`)}
                  ${cell('Key id', html`<code class="key-id">${k.key}_••••••</code>`)}${cell('Created', html`<span class="muted">${new Date(k.createdAt).toLocaleString()}</span>`)}
                  <td><button @click=${(e: Event) => this.askRevoke(k.key, e)} aria-label="Revoke key ${k.name}">Revoke</button></td></tr>`,
              )}</tbody></table></div>`
      }
      ${this.renderRevoke()}
      <form @submit=${this.createKey} aria-label="New API key" class="inline-form">
        <div class="field"><label for="key-name">Key name</label> <span class="req" aria-hidden="true">*</span>
          <input id="key-name" name="keyName" required maxlength="100" aria-describedby="key-name-hint" spellcheck="false" />
          <small id="key-name-hint">Where it is used, e.g. production or ci.</small></div>
        <div class="field"><label for="key-desc">Description</label>
          <input id="key-desc" name="description" maxlength="500" /></div>
        <button class="primary" type="submit" ?disabled=${this.busy}>Create a key</button>
      </form>`
  }

  private renderRevoke() {
    const k = this.keys?.find((x) => x.key === this.revoking)
    if (!k) return nothing
    return confirmDialog({
      heading: `Revoke key ${k.name}?`,
      text: 'Your backend can no longer mint guest tokens with it, and the tokens it minted stop at once. This cannot be undone.',
      confirm: 'Revoke for good',
      busy: this.busy,
      onConfirm: () => void this.revoke(k.key),
      onKeep: () => void this.keepKey(),
    })
  }

  private renderWhitelist() {
    return html`<h2>Allowed origins</h2>
      <p class="muted">The sites whose pages may show this data app's embeds. A browser on any other site is refused, even with a valid guest token.
        Write each as an origin: the host and an optional port, no https:// and no path (app.example.com, localhost:3000, or *.example.com for every subdomain).</p>
      ${
        this.origins === undefined
          ? nothing
          : this.origins.length === 0
            ? html`<div class="empty"><strong>No origin allowed yet</strong><p>Add the site where your product shows the embeds.</p></div>`
            : html`<ul class="origins" aria-label="Allowed origins">${this.origins.map(
                (o) => html`<li><code>${o}</code> <button aria-label="Remove ${o}"
                  @click=${() =>
                    this.saveOrigins(
                      (this.origins ?? []).filter((x) => x !== o),
                      `${o} is removed.`,
                    )}>Remove</button></li>`,
              )}</ul>`
      }
      <form @submit=${this.addOrigin} aria-label="Add an origin" novalidate class="inline-form">
        <div class="field"><label for="origin">Origin</label>
          <input id="origin" name="origin" maxlength="253" spellcheck="false" placeholder="app.example.com"
            aria-invalid=${this.originError ? 'true' : 'false'} aria-describedby="origin-error" />
          <small id="origin-error" class=${this.originError ? 'field-error' : ''} role=${this.originError ? 'alert' : nothing}>${this.originError}</small></div>
        <button type="submit">Add the origin</button>
      </form>`
  }
}
