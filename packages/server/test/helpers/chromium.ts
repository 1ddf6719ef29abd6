import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { isCI } from './services.js'

/** Debian's chromium, driven through playwright-core (never a downloaded browser). */
export const CHROMIUM = '/usr/bin/chromium'

/** Whether Chromium is here: locally its absence skips the browser tests loudly; under CI=true it fails them. */
export const hasChromium = existsSync(CHROMIUM)
if (!hasChromium) {
  if (isCI) throw new Error(`${CHROMIUM} is missing; CI=true requires it`)
  console.warn(`\n  ⚠ SKIPPING browser tests: ${CHROMIUM} is not installed\n`)
}

/** Where screenshots are kept as artifacts. */
export const ARTIFACTS = join(process.cwd(), 'test-results')
