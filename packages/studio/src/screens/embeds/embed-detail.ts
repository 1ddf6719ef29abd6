import { html, nothing } from 'lit'
import type { AccessSettings, EmbedItem } from '../../api/client.js'
import { copyText, go, messageOf, StudioElement } from '../../ui/base.js'
import { confirmDialog, showConfirm } from '../../ui/confirm.js'
import { accessFieldset, accessFromForm } from './access-form.js'
import { htmlSnippet, nodeSnippet, reactSnippet, type SnippetInput } from './snippets.js'

const SNIPPETS = [
  {
    id: 'html',
    title: 'HTML',
    about: 'The page: the element and the call that hands it a guest token.',
    make: htmlSnippet,
  },
  {
    id: 'react',
    title: 'React',
    about: 'A component around the element; the token is set as a property.',
    make: reactSnippet,
  },
  {
    id: 'node',
    title: 'Node (your backend)',
    about: 'Mints the guest token with the data app key, read from the STRATA_DATA_APP_KEY environment variable.',
    make: nodeSnippet,
  },
] as const

/** `<studio-embed-detail>`: one embed: its access settings (save, delete) and the snippets to ship it. */
export class StudioEmbedDetail extends StudioElement {
  static override properties = {
    app: { type: String },
    embedId: { type: String },
    created: { type: Boolean },
    embed: { state: true },
    settings: { state: true },
    error: { state: true },
    status: { state: true },
    busy: { state: true },
    confirming: { state: true },
  }
  app = ''
  embedId = ''
  created = false
  embed: EmbedItem | undefined
  settings: AccessSettings | undefined
  error = ''
  status = ''
  busy = false
  confirming = false

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    if (this.created) {
      this.status = 'Embed created. Copy a snippet below for your developers.'
      // a reload must not announce it again
      history.replaceState(null, '', location.href.replace(/\?created=1$/, ''))
    }
    void this.load()
  }

  private async load(): Promise<void> {
    try {
      const [list, settings] = await Promise.all([
        this.api.embeds(this.app),
        this.api.embedAccess(this.app, this.embedId),
      ])
      this.embed = list.find((e) => e.embedId === this.embedId)
      this.settings = settings
    } catch (err) {
      this.error = messageOf(err)
    }
  }

  private async save(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    this.busy = true
    this.error = ''
    this.status = ''
    try {
      const next = accessFromForm(e.target as HTMLFormElement)
      await this.api.updateEmbed(this.app, this.embedId, next)
      this.settings = { ...this.settings, ...next }
      this.status = 'Saved. End users see the change on their next click, without a new token.'
    } catch (err) {
      this.error = messageOf(err)
    } finally {
      this.busy = false
    }
  }

  /** The confirmation takes the focus (on the safe choice); keeping the embed gives it back to the button. */
  private async askDelete(): Promise<void> {
    this.confirming = true
    await this.updateComplete
    showConfirm(this)
  }

  private async keep(): Promise<void> {
    this.confirming = false
    await this.updateComplete
    this.querySelector<HTMLElement>('#delete-embed')?.focus()
  }

  private async deleteEmbed(): Promise<void> {
    this.busy = true
    try {
      await this.api.deleteEmbed(this.app, this.embedId)
      go(`embeds?app=${encodeURIComponent(this.app)}`)
    } catch (err) {
      this.error = messageOf(err)
      this.busy = false
      this.confirming = false
    }
  }

  private async copy(id: string, text: string): Promise<void> {
    const refused = await copyText(text, 'the snippet')
    if (refused) this.error = refused
    else this.status = `The ${id} snippet is copied to the clipboard.`
  }

  override render() {
    const back = html`<p><a href="#/embeds?app=${encodeURIComponent(this.app)}">← Embeds of ${this.app}</a></p>`
    const title = this.embed?.name ?? this.embedId
    const notices = html`${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      <p class="notice ok ${this.status ? '' : 'sr-only'}" role="status">${this.status}</p>`
    if (!this.embed || !this.settings) {
      return html`${back}<h1 tabindex="-1">${title}</h1>${notices}${this.error ? nothing : html`<p role="status">Loading…</p>`}`
    }
    const input: SnippetInput = {
      server: `${location.origin}${this.api.base}`,
      dataApp: this.app,
      embedId: this.embedId,
      embedType: this.embed.embedType,
      metricId: this.embed.embedMetadata.metricId,
    }
    const shows = this.embed.externalMetric
      ? `metric ${this.embed.externalMetric.name}`
      : `dashboard ${this.embed.externalDashboard?.name ?? this.embed.embedMetadata.dashboardId ?? ''}`
    return html`${back}<h1 tabindex="-1">${title}</h1>
      <p class="lead">Shows the ${shows}. Embed id <code>${this.embedId}</code>, data app ${this.app}.</p>
      ${notices}
      <h2>Access settings</h2>
      <form @submit=${this.save} aria-label="Access settings">
        ${accessFieldset(this.settings)}
        <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? 'Saving…' : 'Save access settings'}</button>
      </form>
      <h2>Snippets</h2>
      <p class="lead">Ready to copy for your developers. Your backend mints a guest token per signed-in user; the page hands it to the element.
        Allow your site's origin in the data app's <a href="#/data-apps/${encodeURIComponent(this.app)}">whitelist</a>.</p>
      ${SNIPPETS.map((s) => {
        const text = s.make(input)
        return html`<section class="snippet" aria-labelledby="snip-${s.id}">
          <div class="snippet-head"><h3 id="snip-${s.id}">${s.title}</h3>
            <button @click=${() => this.copy(s.title, text)} aria-label="Copy the ${s.title} snippet">Copy</button></div>
          <p class="muted">${s.about}</p>
          <pre data-snippet=${s.id} tabindex="0" aria-label="${s.title} snippet"><code>${text}</code></pre></section>`
      })}
      <h2>Delete</h2>
      <p class="muted">Deleting the embed keeps its dashboard.</p>
      <button class="danger" id="delete-embed" @click=${this.askDelete}>Delete this embed</button>
      ${
        this.confirming
          ? confirmDialog({
              heading: `Delete ${title}?`,
              text: 'Pages that show it stop at once, and its guest tokens stop working. Its dashboard is kept.',
              confirm: 'Delete for good',
              busy: this.busy,
              onConfirm: () => void this.deleteEmbed(),
              onKeep: () => void this.keep(),
            })
          : nothing
      }`
  }
}
