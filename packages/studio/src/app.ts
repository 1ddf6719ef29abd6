import { html, nothing } from 'lit'
import { keyed } from 'lit/directives/keyed.js'
import { StudioApi } from './api/client.js'
import { messageOf, StudioElement } from './ui/base.js'

/** The screens of the navigation, in order: what exists today. */
const NAV = [
  { route: 'datasources', label: 'Datasources' },
  { route: 'datamarts', label: 'Datamarts' },
  { route: 'workspaces', label: 'Workspaces' },
  { route: 'dashboards', label: 'Dashboards' },
  { route: 'data-apps', label: 'Data apps' },
  { route: 'embeds', label: 'Embeds' },
] as const

type Phase = 'loading' | 'create' | 'signin' | 'app' | 'unreachable'

/**
 * `<strata-studio>`: the shell. Decides between creating the admin account (fresh server),
 * signing in and the app; holds the route (the URL's hash) and the navigation.
 */
export class StudioApp extends StudioElement {
  static override properties = {
    phase: { state: true },
    route: { state: true },
    menuOpen: { state: true },
    notice: { state: true },
  }
  phase: Phase = 'loading'
  route = ''
  menuOpen = false
  notice = ''

  override connectedCallback(): void {
    super.connectedCallback()
    const base = this.getAttribute('base') ?? ''
    this.api = new StudioApi(base, () => {
      this.notice = 'Your session has ended. Sign in again to go on.'
      this.phase = 'signin'
    })
    window.addEventListener('hashchange', this.onHash)
    this.onHash()
    void this.boot()
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    window.removeEventListener('hashchange', this.onHash)
  }

  private readonly onHash = (): void => {
    this.route = location.hash.replace(/^#\/?/, '') || 'datasources'
    this.menuOpen = false
  }

  private async boot(): Promise<void> {
    try {
      if (this.api.session.canResume && (await this.api.session.refresh())) {
        this.phase = 'app'
        return
      }
      this.phase = (await this.api.adminExists()) ? 'signin' : 'create'
    } catch (err) {
      this.notice = messageOf(err)
      this.phase = 'unreachable'
    }
  }

  private signedIn = (): void => {
    this.notice = ''
    this.phase = 'app'
    if (!location.hash) location.hash = '#/datasources'
  }

  private signOut = (): void => {
    this.api.session.end()
    this.notice = 'You are signed out.'
    this.phase = 'signin'
  }

  override render() {
    switch (this.phase) {
      case 'loading':
        return html`<main class="auth"><p role="status">Loading the studio…</p></main>`
      case 'unreachable':
        return html`<main class="auth"><div class="card"><h1>Strata studio</h1>
          <p class="notice error" role="alert">${this.notice}</p>
          <button class="primary" @click=${() => location.reload()}>Try again</button></div></main>`
      case 'create':
      case 'signin':
        return html`<studio-auth .api=${this.api} .mode=${this.phase} .notice=${this.notice}
          @studio-signed-in=${this.signedIn} @studio-mode=${(e: CustomEvent<Phase>) => {
            this.notice = ''
            this.phase = e.detail
          }}></studio-auth>`
      case 'app':
        return this.renderApp()
    }
  }

  private renderApp() {
    const section = this.route.split(/[/?]/)[0]
    return html`<a class="skip" href="#main" @click=${this.skip}>Skip to content</a>
      <div class="shell">
        <div class="topbar">
          <a class="brand" href="#/datasources">Strata studio</a>
          <button aria-expanded=${this.menuOpen ? 'true' : 'false'} aria-controls="studio-nav"
            @click=${() => {
              this.menuOpen = !this.menuOpen
            }}>Menu</button>
        </div>
        <nav id="studio-nav" class="sidebar ${this.menuOpen ? 'open' : ''}" aria-label="Studio">
          <a class="brand" href="#/datasources">Strata studio</a>
          <ul class="nav">
            ${NAV.map(
              (n) =>
                html`<li><a href="#/${n.route}" aria-current=${section === n.route ? 'page' : nothing}>${n.label}</a></li>`,
            )}
          </ul>
          <div class="nav-foot"><button @click=${this.signOut}>Sign out</button></div>
        </nav>
        <main id="main" tabindex="-1">${keyed(this.route, this.screen())}</main>
      </div>`
  }

  private skip = (e: Event): void => {
    e.preventDefault()
    this.querySelector<HTMLElement>('main')?.focus()
  }

  private screen() {
    const [path = '', query = ''] = this.route.split('?')
    const [section, ...rest] = path.split('/')
    const arg = rest.length > 0 ? decodeURIComponent(rest.join('/')) : ''
    switch (section) {
      case 'datasources':
        if (arg === 'new') return html`<studio-datasource-form .api=${this.api}></studio-datasource-form>`
        if (arg && query === 'edit')
          return html`<studio-datasource-form .api=${this.api} .editing=${arg}></studio-datasource-form>`
        if (arg)
          return html`<studio-datasource-detail .api=${this.api} .name=${arg} .saved=${query === 'saved'}></studio-datasource-detail>`
        return html`<studio-datasources .api=${this.api}></studio-datasources>`
      case 'datamarts':
        if (arg === 'new') {
          const preset = new URLSearchParams(query).get('datasource') ?? ''
          return html`<studio-datamart-form .api=${this.api} .preset=${preset}></studio-datamart-form>`
        }
        if (arg) return html`<studio-datamart-form .api=${this.api} .editing=${arg}></studio-datamart-form>`
        return html`<studio-datamarts .api=${this.api} .saved=${new URLSearchParams(query).get('saved') ?? ''}></studio-datamarts>`
      case 'workspaces':
        return html`<studio-workspaces .api=${this.api}></studio-workspaces>`
      case 'dashboards': {
        const [workspace, dashboard] = rest.map(decodeURIComponent)
        if (workspace && dashboard) {
          return html`<studio-dashboard .api=${this.api} .workspaceName=${workspace} .dashboardId=${dashboard}></studio-dashboard>`
        }
        return html`<studio-dashboards .api=${this.api}></studio-dashboards>`
      }
      case 'data-apps':
        if (arg) return html`<studio-data-app .api=${this.api} .name=${arg}></studio-data-app>`
        return html`<studio-data-apps .api=${this.api}></studio-data-apps>`
      case 'embeds': {
        const params = new URLSearchParams(query)
        const app = params.get('app') ?? ''
        if (arg === 'new') return html`<studio-embed-form .api=${this.api} .app=${app}></studio-embed-form>`
        const [embedApp = '', embedId = ''] = rest.map((p) => decodeURIComponent(p))
        if (embedId) {
          return html`<studio-embed-detail .api=${this.api} .app=${embedApp} .embedId=${embedId}
            .created=${params.has('created')}></studio-embed-detail>`
        }
        return html`<studio-embeds .api=${this.api} .app=${app}></studio-embeds>`
      }
      default:
        return html`<h1 tabindex="-1">Not found</h1><p>There is no such screen. <a href="#/datasources">Go to datasources</a>.</p>`
    }
  }
}
