import { LitElement } from 'lit'
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

/** Goes to a studio screen (hash routes). */
export const go = (route: string): void => {
  location.hash = `#/${route}`
}
