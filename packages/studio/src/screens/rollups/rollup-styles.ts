import { css } from 'lit'

/** The rollups panel: its rollup forms, the dimension checkboxes, the state badges. */
export const rollupStyles = css`
  studio-dashboard-rollups, studio-rollup-state { display: block; }
  fieldset.rollup { background: #fafafa; }
  fieldset.rollup input:disabled, fieldset.rollup select:disabled { background: var(--soft); color: var(--muted); }
  fieldset.rollup.invalid { border-color: var(--danger); border-width: 2px; }
  fieldset.rollup > .link, .measure .link { border: 0; background: none; color: var(--danger); padding: 0.25rem 0; min-height: 44px; text-decoration: underline; }
  .measure .link[disabled] { color: var(--muted); text-decoration: none; }
  fieldset.dims, fieldset.measures { background: #fff; }
  fieldset.dims[data-invalid='true'] { border-color: var(--danger); border-width: 2px; }
  .dim-group + .dim-group { margin-top: 0.75rem; }
  .dim-title { font-weight: 600; margin: 0.5rem 0 0.25rem; font-size: 0.9rem; overflow-wrap: anywhere; }
  .dim-list { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 11rem), 1fr)); gap: 0 1rem; }
  .dim-list .check { margin: 0; }
  .measure { align-items: end; border-bottom: 1px solid var(--soft); margin-bottom: 0.75rem; }
  .measure .field { margin-bottom: 0.5rem; }
  .mode { padding: 0.25rem 0 0.5rem; }
  .mode + .mode { border-top: 1px solid var(--soft); }
  .mode small { display: block; color: var(--muted); margin: -0.35rem 0 0 1.85rem; }
  .badge { display: inline-block; min-width: 5.5rem; text-align: center; border-radius: 999px; padding: 0.05rem 0.6rem; font-size: 0.85rem; font-weight: 600; border: 1px solid; }
  .state-ready { background: var(--ok-soft); color: var(--ok); border-color: #bbf7d0; }
  .state-building { background: var(--accent-soft); color: var(--accent); border-color: #c7d2fe; }
  .state-stale { background: #fffbeb; color: #92400e; border-color: #fde68a; }
  .state-failed { background: var(--danger-soft); color: var(--danger); border-color: #fecaca; }
  fieldset.rollup .field-error { overflow-wrap: anywhere; }
  .rollup-error { color: var(--danger); overflow-wrap: anywhere; }
  table.rollup-states td { padding: 0.6rem 0.6rem; }
  .rollup-name { overflow-wrap: break-word; }
  table.rollup-states td:nth-child(3), table.rollup-states td:nth-child(4), table.rollup-states td:nth-child(7) { white-space: nowrap; }
  table.rollup-states .badge, table.rollup-states button { white-space: nowrap; }
`
