import { html, nothing } from 'lit'
import type { DataAppItem } from '../api/client.js'
import { copyText, listView, messageOf, StudioElement } from '../ui/base.js'

/**
 * `<studio-data-apps>`: data apps and the creation of one with its first API key. The key is
 * shown once, kept only in this element while the page shows it, with a copy button.
 */
export class StudioDataApps extends StudioElement {
  static override properties = {
    items: { state: true },
    error: { state: true },
    busy: { state: true },
    created: { state: true },
    copied: { state: true },
  }
  items: DataAppItem[] | undefined
  error = ''
  busy = false
  created: { name: string; key: string } | undefined
  copied = false

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    void this.load()
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    this.created = undefined // the secret key leaves memory with the screen
  }

  private async load(): Promise<void> {
    try {
      this.items = await this.api.dataApps()
    } catch (err) {
      this.error = messageOf(err)
    }
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    const form = e.target as HTMLFormElement
    this.busy = true
    this.error = ''
    this.copied = false
    try {
      this.created = await this.api.createDataApp(String(new FormData(form).get('name') ?? ''))
      form.reset()
      await this.load()
      this.querySelector<HTMLElement>('#key-heading')?.focus()
    } catch (err) {
      this.error = messageOf(err)
    } finally {
      this.busy = false
    }
  }

  private async copy(): Promise<void> {
    if (!this.created) return
    const refused = await copyText(this.created.key, 'the key')
    if (refused) this.error = refused
    else this.copied = true
  }

  override render() {
    return html`<h1 tabindex="-1">Data apps</h1>
      <p class="lead">A data app is what your product's backend talks to: its API key mints guest tokens for your end users' dashboards. Keep the key on your servers, never in a web page. Open a data app for its keys and the sites allowed to show its embeds.</p>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${
        this.created
          ? html`<section class="notice ok" aria-labelledby="key-heading">
              <h2 id="key-heading" tabindex="-1">API key of ${this.created.name}</h2>
              <p>This is the only time the key is shown. Copy it now into your backend's secrets.</p>
              <p class="secret" data-testid="new-key">${this.created.key}</p>
              <div class="actions"><button @click=${this.copy}>${this.copied ? 'Copied' : 'Copy the key'}</button>
                <button @click=${() => {
                  this.created = undefined
                }}>I have saved it</button></div>
              <p class="sr-only" role="status">${this.copied ? 'Key copied to the clipboard' : ''}</p>
            </section>`
          : nothing
      }
      ${listView({
        items: this.items,
        error: this.error,
        empty: html`<div class="empty"><strong>No data app yet</strong><p>Create one below to get the API key your backend uses.</p></div>`,
        caption: 'Data apps',
        headers: ['Name', 'Embeds', 'Created'],
        cells: (a) => [
          html`<a href="#/data-apps/${encodeURIComponent(a.name)}">${a.name}</a>`,
          html`<a href="#/embeds?app=${encodeURIComponent(a.name)}" aria-label="${embeds(a.embedCount)} of ${a.name}">${embeds(a.embedCount)}</a>`,
          html`<span class="muted">${new Date(a.createdAt).toLocaleString()}</span>`,
        ],
      })}
      <h2>New data app</h2>
      <form @submit=${this.submit} aria-label="New data app">
        <div class="field"><label for="app-name">Name</label> <span class="req" aria-hidden="true">*</span>
          <input id="app-name" name="name" required maxlength="100" pattern="[A-Za-z0-9]+" aria-describedby="app-name-hint" spellcheck="false" />
          <small id="app-name-hint">Letters and digits only, e.g. salesapp.</small></div>
        <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? 'Creating…' : 'Create the data app'}</button>
      </form>`
  }
}

/** The embeds cell says what it counts: it reads alone when a narrow screen stacks the row. */
const embeds = (n: number) => `${n} ${n === 1 ? 'embed' : 'embeds'}`
