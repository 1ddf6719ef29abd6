import { html, LitElement, nothing, type PropertyValues } from 'lit'
import { keyed } from 'lit/directives/keyed.js'
import type { StudioApi } from '../api/client.js'
import { dashboardsApi, type PreviewRequest } from '../api/dashboards.js'
import { messageOf } from './base.js'

let sdk: Promise<unknown> | undefined

/**
 * `<studio-embed-view>`: the real `<strata-dashboard>`, loaded from the server's own SDK bundle,
 * with a token the server mints for the request (POST /api/v2/studio/preview-token): a new one
 * whenever the request changes and when the element says its token expired. `company` turns
 * the element's company mode on (what its builder saves comes to the studio as events).
 */
export class StudioEmbedView extends LitElement {
  static override properties = {
    request: { attribute: false },
    company: { type: Boolean },
    label: {},
    error: { state: true },
    token: { state: true },
  }
  api!: StudioApi
  request: PreviewRequest | undefined
  company = false
  label = 'Dashboard'
  error = ''
  token = ''
  embedId = ''
  private minted = 0
  /** Another request (another tenant): a new element, loaded with the new token. */
  private generation = 0

  override createRenderRoot(): HTMLElement {
    return this
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('request')) {
      this.generation++
      this.token = ''
      void this.mint()
    }
  }

  /** Mints a token for the request now; the newest call wins. */
  async mint(): Promise<void> {
    const request = this.request
    if (!request) return
    const call = ++this.minted
    this.error = ''
    try {
      sdk ??= import(`${this.api.base}/sdk/strata-embed.js`).catch((e: unknown) => {
        sdk = undefined
        throw e
      })
      const [minted] = await Promise.all([dashboardsApi(this.api).previewToken(request), sdk])
      if (call !== this.minted) return
      this.embedId = minted.embedId
      this.token = minted.token
    } catch (err) {
      if (call === this.minted) this.error = messageOf(err)
    }
  }

  override render() {
    if (this.error) return html`<p class="notice error" role="alert">${this.error}</p>`
    if (!this.token) return html`<p role="status">Loading the dashboard…</p>`
    return keyed(
      this.generation,
      html`<strata-dashboard
      class="embed-frame"
      role="region"
      aria-label=${this.label}
      ?company-mode=${this.company}
      embed-id=${this.embedId}
      base-url=${location.origin + this.api.base}
      options='{"syncUrl":false}'
      .token=${this.token}
      @strata-token-expired=${() => void this.mint()}
    ></strata-dashboard>${nothing}`,
    )
  }
}
