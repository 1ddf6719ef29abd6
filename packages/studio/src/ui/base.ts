import { html, LitElement, nothing, type TemplateResult } from 'lit'
import type { StudioApi } from '../api/client.js'
import { StudioError } from '../api/errors.js'

/**
 * A studio screen: rendered into the light DOM (the document's one stylesheet applies, labels
 * and ids work across the page), with the API client set by the shell.
 */
export class StudioElement extends LitElement {
  api!: StudioApi

  override createRenderRoot(): HTMLElement {
    return this
  }

  /** Moves focus to the screen's heading once drawn, so a keyboard or screen reader user starts there. */
  protected focusHeading(): void {
    void this.updateComplete.then(() => this.querySelector<HTMLElement>('h1')?.focus())
  }
}

/** The sentence to show for a failure (a StudioError names the fix). */
export const messageOf = (err: unknown): string =>
  err instanceof StudioError ? err.message : 'Something went wrong in the studio. Reload the page and try again.'

/**
 * Copies `text` to the clipboard; undefined when copied, else the sentence to show (the browser
 * refused: `what` is what the person selects and copies by hand).
 */
export async function copyText(text: string, what: string): Promise<string | undefined> {
  try {
    await navigator.clipboard.writeText(text)
    return undefined
  } catch {
    return `The browser did not allow copying: select ${what} and copy it by hand.`
  }
}

/** Goes to a studio screen (hash routes). */
export const go = (route: string): void => {
  location.hash = `#/${route}`
}

/**
 * A list screen's list: "Loading…" until the items come (nothing when loading failed: the screen
 * shows its error), the empty state when there is none, else a table with a caption for screen
 * readers, the column headers and a row per item, its cells from `cells` (below 600 px each row's
 * cells stack, so that no column is cut off at the right, and each cell then starts with its
 * column's name: see `cell`).
 */
export function listView<T>(list: {
  readonly items: readonly T[] | undefined
  readonly error: string
  readonly empty: TemplateResult
  readonly caption: string
  readonly headers: readonly string[]
  readonly cells: (item: T) => readonly unknown[]
}): TemplateResult | typeof nothing {
  if (list.items === undefined) return list.error ? nothing : html`<p role="status">Loading…</p>`
  if (list.items.length === 0) return list.empty
  return html`<div class="table-wrap"><table class="stack"><caption class="sr-only">${list.caption}</caption>
    <thead><tr>${list.headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
    <tbody>${list.items.map((item) => html`<tr>${list.cells(item).map((c, i) => cell(list.headers[i] ?? '', c))}</tr>`)}</tbody></table></div>`
}

/**
 * A cell of a stacked table (`table.stack`): below 600 px the header row is out of sight and the
 * cells stack, so each cell starts with its column's name (`.cell-label`, not shown at wider
 * widths, where the header row says it) beside its value (`.cell-value`), so a value of several
 * lines keeps the label's indent. An empty label (an actions column) shows none.
 */
export const cell = (label: string, content: unknown, className = ''): TemplateResult =>
  html`<td class=${className}>${label ? html`<span class="cell-label">${label}</span><span class="cell-value">${content}</span>` : content}</td>`
