import { svg } from 'lit'

const icon = (body: ReturnType<typeof svg>) =>
  svg`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${body}</svg>`

export const plusIcon = icon(svg`<path d="M12 5v14"/><path d="M5 12h14"/>`)
export const closeIcon = icon(svg`<path d="M18 6 6 18"/><path d="m6 6 12 12"/>`)
export const moreIcon = icon(
  svg`<circle cx="5" cy="12" r="1"/><circle cx="12" cy="12" r="1"/><circle cx="19" cy="12" r="1"/>`,
)
export const archiveIcon = icon(
  svg`<rect x="3" y="4" width="18" height="4" rx="1"/><path d="M5 8v11h14V8"/><path d="M10 12h4"/>`,
)
export const pencilIcon = icon(svg`<path d="M4 20h4L19 9l-4-4L4 16z"/><path d="m14 6 4 4"/>`)
export const trashIcon = icon(
  svg`<path d="M4 7h16"/><path d="M10 11v6"/><path d="M14 11v6"/><path d="M6 7l1 13h10l1-13"/><path d="M9 7V4h6v3"/>`,
)
export const eyeOffIcon = icon(
  svg`<path d="M3 3l18 18"/><path d="M10.6 6.1A9.8 9.8 0 0 1 12 6c5 0 9 6 9 6a16 16 0 0 1-2.6 3.2"/><path d="M6.3 7.8C4.2 9.3 3 12 3 12s4 6 9 6a8.7 8.7 0 0 0 3.6-.8"/>`,
)
export const shareIcon = icon(
  svg`<circle cx="9" cy="8" r="3"/><path d="M3 20a6 6 0 0 1 12 0"/><path d="M17 11h4"/><path d="M19 9v4"/>`,
)
export const restoreIcon = icon(svg`<path d="M3 12a9 9 0 1 0 3-6.7"/><path d="M3 4v5h5"/>`)
export const chartIcon = icon(svg`<path d="M4 19h16"/><path d="M7 15v-3"/><path d="M12 15V9"/><path d="M17 15v-5"/>`)
export const sparkleIcon = icon(
  svg`<path d="M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9z"/><path d="M19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z"/>`,
)
export const refreshIcon = icon(svg`<path d="M21 12a9 9 0 1 1-3-6.7"/><path d="M21 4v5h-5"/>`)
export const rowsIcon = icon(
  svg`<rect x="3" y="4" width="18" height="16" rx="2"/><path d="M3 10h18"/><path d="M3 15h18"/><path d="M9 4v16"/>`,
)
export const downloadIcon = icon(svg`<path d="M12 4v11"/><path d="m7 10 5 5 5-5"/><path d="M5 20h14"/>`)
