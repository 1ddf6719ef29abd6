import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// @strata/contract from its sources: tests see an edit without rebuilding packages/contract/dist
const contract = fileURLToPath(new URL('./packages/contract/src/', import.meta.url))
// @strata/node from its sources too (its examples import it by name)
const node = fileURLToPath(new URL('./packages/node/src/index.ts', import.meta.url))
// the server's import of the embed's chart option builder, from its sources too (the build emits dist/node)
const chartOptions = fileURLToPath(new URL('./packages/embed/src/chart-options.ts', import.meta.url))

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@strata\/contract$/, replacement: `${contract}index.ts` },
      { find: /^@strata\/contract\/(.+)$/, replacement: `${contract}$1.ts` },
      { find: /^@strata\/embed\/chart-options$/, replacement: chartOptions },
      { find: /^@strata\/node$/, replacement: node },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    pool: 'forks',
    // Two files at a time: most suites wait on processes, databases and Chromium, not on the CPU
    // (vitest's default on a 2-core machine is one).
    maxWorkers: 2,
    // builds packages/server/dist when older than src: the live-process tests run the build
    globalSetup: ['packages/server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
})
