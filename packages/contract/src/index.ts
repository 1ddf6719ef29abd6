/**
 * @strata/contract: the shapes the server and the web component share, as TypeBox schemas
 * with their `Static` types. The web component imports types only (`import type`) and the
 * TypeBox-free `@strata/contract/date-presets`, so its bundle never carries TypeBox.
 */
export * from './ai.js'
export * from './chart-fit.js'
export * from './date-presets.js'
export * from './document.js'
export * from './rollups.js'
export * from './runtime.js'
export * from './self-serve.js'
export * from './wording.js'
