import { css } from 'lit'

/** The dashboard screens: the tenant bar, the part switcher, filter rows, the embedded dashboard. */
export const dashboardStyles = css`
  .crumbs { margin: 0 0 0.25rem; color: var(--muted); font-size: 0.9rem; }
  .split { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 320px), 1fr)); gap: 2rem; margin-top: 1.5rem; }
  .split form { max-width: none; }
  form.wide { max-width: none; }
  form.wide + .empty, form.wide + .notice { margin-top: 1.25rem; }
  .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 200px), 1fr)); gap: 0 1rem; }
  .tenant-bar { max-width: none; padding: 1rem; border: 1px solid var(--line); border-radius: 10px; background: var(--soft); margin: 0 0 1rem; }
  /* labels on one line, the inputs and the button on the next (the tenant field's hint below it must not push the others down) */
  .tenant-bar .row { display: flex; flex-wrap: wrap; gap: 0.75rem 1rem; align-items: flex-start; }
  .tenant-bar .row > button { margin-top: calc(1.5em + 0.25rem); }
  @media (max-width: 600px) { .tenant-bar .row > button { margin-top: 0; } }
  .tenant-bar .field { flex: 1 1 220px; margin-bottom: 0; }
  .tenant-bar small { display: block; color: var(--muted); margin-top: 0.4rem; }
  .tabs { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0 0 1.25rem; border-bottom: 1px solid var(--line); padding-bottom: 0.75rem; }
  .tabs button[aria-pressed='true'] { background: var(--accent-soft); border-color: var(--accent); color: var(--accent); font-weight: 600; }
  .filter-row .link { border: 0; background: none; color: var(--danger); padding: 0.25rem 0; min-height: 44px; text-decoration: underline; }
  .check .flag { display: block; color: var(--muted); font-family: ui-monospace, monospace; font-size: 0.8rem; overflow-wrap: anywhere; }
  textarea.code { font-family: ui-monospace, monospace; font-size: 0.9rem; }
  studio-embed-view { display: block; margin-top: 1rem; }
  strata-dashboard.embed-frame { display: block; border: 1px solid var(--line); border-radius: 12px; overflow: hidden; min-height: 200px; }
`
