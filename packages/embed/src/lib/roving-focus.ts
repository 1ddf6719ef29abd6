/**
 * Roving focus in a list of entries (a menu, a listbox, the metrics panel): ArrowDown and ArrowUp
 * step, Home and End jump to the ends. Lists that wrap (menus) go from the last entry to the first
 * and back; lists that do not (a select's options, the metrics panel) stop at the ends.
 */

/** The keys that move focus among entries. */
export type RovingKey = 'ArrowDown' | 'ArrowUp' | 'Home' | 'End'

/**
 * Where focus goes for `key` among `count` entries when it is on entry `at` (-1: on none of them):
 * the new index, or -1 when the key does not move it (or there are no entries).
 */
export function rovingIndex(key: string, at: number, count: number, wrap: boolean): number {
  if (count <= 0) return -1
  const last = count - 1
  switch (key) {
    case 'ArrowDown':
      if (at < 0) return 0
      return wrap ? (at + 1) % count : Math.min(last, at + 1)
    case 'ArrowUp':
      if (at < 0) return wrap ? last : 0
      return wrap ? (at - 1 + count) % count : Math.max(0, at - 1)
    case 'Home':
      return 0
    case 'End':
      return last
    default:
      return -1
  }
}

/** What `focusByKey` needs of a key event and an entry (a KeyboardEvent and elements in the browser). */
interface KeyLike {
  readonly key: string
  preventDefault(): void
}
interface Focusable {
  focus(): void
}

/**
 * Moves focus among `items` for a roving key pressed while `from` has focus: focuses the entry and
 * prevents the key's default (the page scrolling). Answers whether it moved; other keys are left alone.
 */
export function focusByKey<T extends Focusable>(
  e: KeyLike,
  items: readonly T[],
  from: T | EventTarget | null,
  wrap = true,
): boolean {
  const to = rovingIndex(e.key, items.indexOf(from as T), items.length, wrap)
  if (to < 0) return false
  e.preventDefault()
  items[to]?.focus()
  return true
}
