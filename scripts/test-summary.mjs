// Prints the closing line CI reads, "N passed, N failed[, N skipped]", from vitest's JSON report.
// A run that failed without a failing test (lint, type check, a suite that failed to load)
// counts as one failure, so a red run never reads as green.
import { readFileSync } from 'node:fs'

const [file, status] = process.argv.slice(2)
let report = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0 }
try {
  report = JSON.parse(readFileSync(file, 'utf8'))
} catch {
  // no report: vitest did not run
}
const failed = report.numFailedTests || (Number(status) === 0 ? 0 : 1)
const skipped = report.numPendingTests + report.numTodoTests
console.log(`${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
