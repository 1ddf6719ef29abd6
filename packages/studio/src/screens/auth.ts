import { html, nothing } from 'lit'
import { messageOf, StudioElement } from '../ui/base.js'

/**
 * `<studio-auth>`: sign-in, or on a fresh server the creation of the admin account (then the
 * studio signs in with it). Fires `studio-signed-in`, and `studio-mode` to switch forms.
 */
export class StudioAuth extends StudioElement {
  static override properties = {
    mode: { attribute: false },
    notice: { attribute: false },
    error: { state: true },
    busy: { state: true },
  }
  mode: 'create' | 'signin' = 'signin'
  notice = ''
  error = ''
  busy = false

  override firstUpdated(): void {
    this.querySelector<HTMLInputElement>('input')?.focus()
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    const form = new FormData(e.target as HTMLFormElement)
    const value = (k: string) => String(form.get(k) ?? '')
    this.busy = true
    this.error = ''
    try {
      if (this.mode === 'create') {
        await this.api.createAdmin({
          firstName: value('firstName'),
          companyName: value('companyName'),
          email: value('email'),
          password: value('password'),
        })
      }
      await this.api.signIn(value('email'), value('password'))
      this.dispatchEvent(new CustomEvent('studio-signed-in', { bubbles: true, composed: true }))
    } catch (err) {
      this.error = messageOf(err)
      await this.updateComplete
      this.querySelector<HTMLElement>('[role=alert]')?.focus()
    } finally {
      this.busy = false
    }
  }

  override render() {
    const create = this.mode === 'create'
    return html`<main class="auth"><div class="card">
      <h1>${create ? 'Welcome to Strata' : 'Sign in to the studio'}</h1>
      <p class="lead">${
        create
          ? 'This server has no admin account yet. Create it: it signs in here and owns the datasources, datamarts and data apps.'
          : 'Sign in with the admin account of this server.'
      }</p>
      ${this.notice ? html`<p class="notice info" role="status">${this.notice}</p>` : nothing}
      ${this.error ? html`<p class="notice error" role="alert" tabindex="-1">${this.error}</p>` : nothing}
      <form @submit=${this.submit} aria-label=${create ? 'Create the admin account' : 'Sign in'}>
        ${
          create
            ? html`<label class="field"><span>Your first name</span>
                <input name="firstName" required minlength="3" maxlength="30" autocomplete="given-name" /></label>
              <label class="field"><span>Company</span>
                <input name="companyName" required maxlength="100" autocomplete="organization" /></label>`
            : nothing
        }
        <label class="field"><span>Email</span>
          <input name="email" type="email" required autocomplete="username" /></label>
        <div class="field"><label for="password">Password</label>
          <input id="password" name="password" type="password" required autocomplete=${create ? 'new-password' : 'current-password'}
            aria-describedby=${create ? 'password-rule' : nothing} />
          ${
            create
              ? html`<small id="password-rule">At least 8 characters with an upper and a lower case letter, a digit and a special character; no spaces.</small>`
              : nothing
          }</div>
        <button class="primary" type="submit" ?disabled=${this.busy}>
          ${this.busy ? 'Please wait…' : create ? 'Create the account and sign in' : 'Sign in'}</button>
      </form>
    </div></main>`
  }
}
