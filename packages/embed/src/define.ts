/**
 * Defines a custom element unless the tag is taken: the module may be loaded twice (the
 * server's /sdk/strata-embed.js and a bundled copy), and a second `define` would throw.
 */
export function defineElement(tag: string, ctor: CustomElementConstructor): void {
  if (typeof customElements === 'undefined') return
  if (customElements.get(tag)) return
  customElements.define(tag, ctor)
}
