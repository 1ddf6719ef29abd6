import { focusByKey } from '../lib/roving-focus.js'

/**
 * Keys in the open drill menu: ↑/↓ move between its items (wrapping), Home and End go to the
 * first and last (the roving focus every menu of the element shares), Escape closes it with focus
 * back on what opened it, Tab closes it and lets focus move on. `items` are the menu's items in order.
 */
export function menuKey(e: KeyboardEvent, items: readonly HTMLElement[], close: (refocus: boolean) => void): void {
  if (focusByKey(e, items, e.composedPath()[0] ?? null)) return
  if (e.key === 'Escape') {
    e.preventDefault()
    e.stopPropagation()
    close(true)
  } else if (e.key === 'Tab') close(true)
}
