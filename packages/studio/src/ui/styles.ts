import { css } from 'lit'

/**
 * The studio's one stylesheet, adopted by the document (the screens render into the light DOM,
 * so one sheet styles them all and the CSP needs no inline style).
 */
export const studioStyles = css`
  :root {
    --ink: #111827;
    --muted: #4b5563;
    --line: #d1d5db;
    --soft: #f3f4f6;
    --accent: #3730a3;
    --accent-soft: #e0e7ff;
    --danger: #b91c1c;
    --danger-soft: #fef2f2;
    --ok: #166534;
    --ok-soft: #f0fdf4;
    --focus: #2563eb;
    font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    color: var(--ink);
    background: #fff;
  }
  * { box-sizing: border-box; }
  body { margin: 0; font-size: 15px; line-height: 1.5; }
  h1 { font-size: 1.5rem; margin: 0 0 0.25rem; }
  h2 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; }
  p { margin: 0.25rem 0 0.75rem; }
  a { color: var(--accent); }
  :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  .lead { color: var(--muted); max-width: 60ch; }

  /* shell */
  .shell { display: grid; grid-template-columns: 232px minmax(0, 1fr); min-height: 100vh; }
  .sidebar { background: var(--soft); border-right: 1px solid var(--line); padding: 1.25rem 0.75rem; }
  .brand { font-weight: 700; font-size: 1.1rem; padding: 0 0.75rem 1rem; display: block; color: var(--ink); text-decoration: none; }
  .nav { list-style: none; margin: 0; padding: 0; }
  .nav a { display: block; padding: 0.55rem 0.75rem; border-radius: 8px; color: var(--ink); text-decoration: none; min-height: 44px; }
  .nav a:hover { background: #e5e7eb; }
  .nav a[aria-current='page'] { background: var(--accent-soft); color: var(--accent); font-weight: 600; }
  .nav-foot { margin-top: 1.5rem; padding: 0 0.75rem; color: var(--muted); font-size: 0.9rem; }
  .topbar { display: none; }
  main { padding: 2rem 2.5rem; max-width: 1100px; min-width: 0; }
  h1, h2 { overflow-wrap: anywhere; }

  @media (max-width: 860px) {
    .shell { grid-template-columns: minmax(0, 1fr); align-content: start; }
    .topbar { display: flex; align-items: center; justify-content: space-between; padding: 0.5rem 1rem; border-bottom: 1px solid var(--line); background: var(--soft); }
    .topbar .brand { padding: 0; }
    .sidebar { display: none; border-right: 0; border-bottom: 1px solid var(--line); }
    .sidebar.open { display: block; }
    .sidebar .brand { display: none; }
    main { padding: 1.25rem 1rem; }
  }

  /* controls */
  button, .button {
    font: inherit; border: 1px solid var(--line); background: #fff; color: var(--ink); border-radius: 8px;
    padding: 0.5rem 1rem; min-height: 44px; cursor: pointer; text-decoration: none; display: inline-flex; align-items: center; gap: 0.4rem;
  }
  button:hover, .button:hover { background: var(--soft); }
  button.primary, .button.primary { background: var(--accent); border-color: var(--accent); color: #fff; font-weight: 600; }
  button.primary:hover, .button.primary:hover { background: #312e81; }
  button[disabled] { opacity: 0.6; cursor: progress; }
  .actions { display: flex; gap: 0.75rem; flex-wrap: wrap; align-items: center; margin-top: 1.25rem; }
  .head { display: flex; justify-content: space-between; align-items: flex-start; gap: 1rem; flex-wrap: wrap; margin-bottom: 1rem; }
  /* a heading's buttons wrapped under it (a phone): the head's gap is the space above them */
  @media (max-width: 600px) { .head > .actions { margin-top: 0; } }

  form { max-width: 640px; }
  .field { display: block; margin: 0 0 1rem; }
  .field > span:first-child, .field > label { display: inline-block; font-weight: 600; margin-bottom: 0.25rem; }
  .field > input, .field > select, .field > textarea { display: block; }
  .field small { display: block; color: var(--muted); margin-top: 0.2rem; }
  input, select, textarea { font: inherit; width: 100%; padding: 0.55rem 0.7rem; border: 1px solid #9ca3af; border-radius: 8px; background: #fff; color: var(--ink); min-height: 44px; }
  textarea { min-height: 6rem; }
  .check { display: flex; gap: 0.6rem; align-items: center; margin: 0 0 1rem; min-height: 44px; }
  .check input { width: 1.25rem; min-height: 1.25rem; height: 1.25rem; flex: none; }
  /* a group of radios or checkboxes: even rows, no extra space under the last one */
  fieldset.choices .check { margin: 0; }
  fieldset.choices .check + .check { border-top: 1px solid var(--soft); }
  fieldset.choices .field { margin: 0.75rem 0 0; }
  .req { color: var(--danger); }
  fieldset { border: 1px solid var(--line); border-radius: 10px; padding: 1rem; margin: 0 0 1rem; min-width: 0; }
  legend { font-weight: 600; padding: 0 0.35rem; }

  .field .field-error, .field-error { display: block; color: var(--danger) !important; font-weight: 600; margin: 0.3rem 0 0; }
  [aria-invalid='true'] { border-color: var(--danger); border-width: 2px; }

  /* datamart relationships */
  .relationship { background: #fafafa; }
  .relationship.invalid { border-color: var(--danger); border-width: 2px; }
  .rel-grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0 1rem; align-items: start; }
  .rel-grid .field { margin-bottom: 0.75rem; }
  .rel-join { grid-column: 1 / -1; }
  .rel-join small { overflow-wrap: anywhere; }
  @media (max-width: 560px) { .rel-grid { grid-template-columns: minmax(0, 1fr); } }
  /* a datamart table's columns: below 600 px each column is a block, its label input the full width */
  table.columns td.col-label { width: 55%; }
  table.columns td.col-hide { width: 6rem; }
  .hide-col { display: inline-flex; align-items: center; gap: 0.5rem; min-height: 44px; }
  .hide-col input { width: 1.25rem; height: 1.25rem; min-height: 1.25rem; }
  .hide-col span { display: none; }
  @media (max-width: 600px) {
    table.columns, table.columns tbody { display: block; }
    table.columns thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
    table.columns tr { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.25rem 0.75rem; align-items: center; padding: 0.6rem 0.8rem; border-bottom: 1px solid var(--line); }
    table.columns tr:last-child { border-bottom: 0; }
    table.columns td, table.columns td.col-label, table.columns td.col-hide { display: block; border: 0; padding: 0; width: auto; }
    table.columns td.col-name { grid-column: 1 / -1; }
    .hide-col span { display: inline; }
  }
  .empty-inline { color: var(--muted); border: 1px dashed var(--line); border-radius: 8px; padding: 0.75rem 1rem; }

  /* sync */
  .sync-area { min-height: 0; }
  .sync-progress { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem; }
  .sync-progress p { margin: 0; flex: 1 1 16rem; }
  .sync-progress progress { flex: 0 1 12rem; height: 0.6rem; }
  .changes { margin: 0.35rem 0 0; padding-left: 1.25rem; }

  /* states */
  .notice { border-radius: 10px; padding: 0.75rem 1rem; margin: 0 0 1rem; border: 1px solid; }
  .notice.error { background: var(--danger-soft); border-color: #fecaca; color: var(--danger); }
  .notice.ok { background: var(--ok-soft); border-color: #bbf7d0; color: var(--ok); }
  .notice.info { background: var(--accent-soft); border-color: #c7d2fe; color: var(--accent); }
  .empty { border: 2px dashed var(--line); border-radius: 12px; padding: 2rem; text-align: center; color: var(--muted); }
  .empty strong { display: block; color: var(--ink); font-size: 1.05rem; margin-bottom: 0.25rem; }
  .secret { font-family: ui-monospace, monospace; background: var(--soft); border: 1px solid var(--line); border-radius: 8px; padding: 0.6rem 0.75rem; word-break: break-all; }

  /* lists */
  .table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 10px; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 0.6rem 0.8rem; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
  th { background: var(--soft); font-weight: 600; font-size: 0.9rem; }
  tr:last-child td { border-bottom: 0; }
  .tag { display: inline-block; background: var(--soft); border: 1px solid var(--line); border-radius: 999px; padding: 0 0.55rem; font-size: 0.85rem; }
  .muted { color: var(--muted); }
  input[readonly], select:disabled { background: var(--soft); }

  /* embeds, keys, whitelist */
  button.danger { border-color: var(--danger); color: var(--danger); }
  button.danger:hover { background: var(--danger-soft); }
  .notice.error button.danger { background: var(--danger); color: #fff; }
  .field.narrow { max-width: 320px; }
  .flags .flag { display: grid; grid-template-columns: 1.25rem minmax(0, 1fr); gap: 0.75rem; align-items: start; padding: 0.6rem 0; border-bottom: 1px solid var(--soft); }
  .flags .flag input { width: 1.25rem; height: 1.25rem; min-height: 1.25rem; margin-top: 0.15rem; }
  .flags .flag label { font-weight: 600; }
  .flags .flag small { display: block; color: var(--muted); }
  .flags .field { margin-top: 1rem; }
  .snippet { margin: 0 0 1.25rem; }
  .snippet-head { display: flex; justify-content: space-between; align-items: center; gap: 1rem; }
  .snippet-head h3 { margin: 0; font-size: 1rem; }
  pre { background: #0f172a; color: #e2e8f0; border-radius: 10px; padding: 0.9rem 1rem; overflow-x: auto; font-size: 0.85rem; line-height: 1.45; margin: 0; }
  code { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
  .origins { list-style: none; padding: 0; margin: 0 0 1rem; max-width: 640px; }
  .origins li { display: flex; justify-content: space-between; align-items: center; gap: 1rem; padding: 0.35rem 0; border-bottom: 1px solid var(--line); }
  .actions.tight { margin-top: 0.5rem; }
  .inline-form { margin-top: 1rem; }
  .key-id { white-space: nowrap; }
  @media (max-width: 600px) {
    table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
    table.stack tr { display: block; border-bottom: 1px solid var(--line); padding: 0.4rem 0; }
    table.stack tr:last-child { border-bottom: 0; }
    table.stack td { display: block; border: 0; padding: 0.2rem 0.8rem; }
    table.stack td:has(> .cell-label) { display: flex; align-items: baseline; gap: 0.5rem; }
    table.stack .cell-label { display: block; flex: none; min-width: 7.5rem; color: var(--muted); font-size: 0.85rem; font-weight: 600; }
    table.stack .cell-value { min-width: 0; }
  }
  .cell-label { display: none; }

  /* confirmations */
  dialog.confirm { border: 1px solid var(--line); border-radius: 12px; padding: 1.25rem 1.5rem; width: min(92vw, 460px); color: var(--ink); }
  dialog.confirm h2 { margin-top: 0; }
  dialog.confirm .actions { margin-top: 1rem; }
  dialog.confirm::backdrop { background: rgb(17 24 39 / 0.45); }

  /* sign-in */
  main.auth { max-width: none; }
  .auth { min-height: 100vh; display: grid; place-items: center; padding: 1.5rem; background: var(--soft); }
  .card { background: #fff; border: 1px solid var(--line); border-radius: 14px; padding: 2rem; width: 100%; max-width: 440px; }
  .card form { max-width: none; }
  .card button.primary { width: 100%; justify-content: center; }

  .skip:not(:focus) { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .skip:focus { position: fixed; top: 0.5rem; left: 0.5rem; z-index: 10; background: #fff; padding: 0.5rem 1rem; border-radius: 8px; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`
