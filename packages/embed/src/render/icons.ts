import { svg } from 'lit'

const icon = (body: ReturnType<typeof svg>) =>
  svg`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${body}</svg>`

export const downloadIcon = icon(svg`<path d="M12 4v11"/><path d="m7 10 5 5 5-5"/><path d="M5 20h14"/>`)
export const lockIcon = icon(svg`<rect x="5" y="11" width="14" height="9" rx="2"/><path d="M8 11V8a4 4 0 0 1 8 0v3"/>`)
export const chevronIcon = icon(svg`<path d="m6 9 6 6 6-6"/>`)
export const prevIcon = icon(svg`<path d="m15 18-6-6 6-6"/>`)
export const nextIcon = icon(svg`<path d="m9 18 6-6-6-6"/>`)
export const alertIcon = icon(svg`<circle cx="12" cy="12" r="9"/><path d="M12 8v5"/><path d="M12 16h.01"/>`)
export const emptyIcon = icon(svg`<path d="M4 19h16"/><path d="M7 15v-3"/><path d="M12 15V9"/><path d="M17 15v-5"/>`)
export const clockIcon = icon(svg`<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/>`)
export const checkIcon = icon(svg`<path d="M20 6 9 17l-5-5"/>`)
export const listIcon = icon(
  svg`<path d="M8 6h12"/><path d="M8 12h12"/><path d="M8 18h12"/><path d="M4 6h.01"/><path d="M4 12h.01"/><path d="M4 18h.01"/>`,
)
export const layoutIcon = icon(
  svg`<rect x="3" y="3" width="8" height="8" rx="1.5"/><rect x="13" y="3" width="8" height="5" rx="1.5"/><rect x="13" y="10" width="8" height="11" rx="1.5"/><rect x="3" y="13" width="8" height="8" rx="1.5"/>`,
)
export const viewsIcon = icon(svg`<path d="M6 3h12v18l-6-4-6 4z"/>`)
