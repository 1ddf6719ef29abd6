import { html } from 'lit'
import type { AccessSettings } from '../../api/client.js'
import { ACCESS_FLAGS, CREATION_MODES } from './access-flags.js'

/**
 * The access settings as form controls: a checkbox per flag with its sentence beside it, and
 * how end users create metrics. `settings` gives the current values (a new embed: the initial ones).
 */
export function accessFieldset(settings: AccessSettings) {
  const value = (field: string, initial: boolean) => {
    const v = settings[field]
    return typeof v === 'boolean' ? v : initial
  }
  const mode = typeof settings.metricCreationMode === 'string' ? settings.metricCreationMode : 'DRAG_DROP'
  return html`<fieldset class="flags">
    <legend>What end users may do</legend>
    <p class="muted">Everyone who loads this embed gets these. A guest token can take some away for one user, never add any.</p>
    ${ACCESS_FLAGS.map(
      (f) => html`<div class="flag">
        <input type="checkbox" id="flag-${f.field}" name=${f.field} ?checked=${value(f.field, f.initial)} aria-describedby="flag-${f.field}-why" />
        <div><label for="flag-${f.field}">${f.label}</label>
          <small id="flag-${f.field}-why">${f.explains}</small></div>
      </div>`,
    )}
    <div class="field"><label for="flag-mode">How end users create metrics</label>
      <select id="flag-mode" name="metricCreationMode" aria-describedby="flag-mode-why">
        ${CREATION_MODES.map((m) => html`<option value=${m.value} ?selected=${m.value === mode}>${m.label}</option>`)}
      </select>
      <small id="flag-mode-why">Used only when building metrics is allowed above.</small></div>
  </fieldset>`
}

/** The settings a submitted form holds (every flag, checked or not, and the creation mode). */
export function accessFromForm(form: HTMLFormElement): AccessSettings {
  const data = new FormData(form)
  const out: AccessSettings = {}
  for (const f of ACCESS_FLAGS) out[f.field] = data.get(f.field) === 'on'
  out.metricCreationMode = String(data.get('metricCreationMode') ?? 'DRAG_DROP')
  return out
}
