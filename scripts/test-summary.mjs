// Prints the closing line CI reads, "N passed, N failed[, N skipped]", from vitest's JSON reports.
//   node scripts/test-summary.mjs [LABEL=]REPORT STATUS [[LABEL=]REPORT STATUS]…
// Each run is a report file and the exit status of the command that wrote it. With several runs
// (the suite on each Node line), a line per run comes first, labelled, and the closing line sums
// them. A run that failed without a failing test (lint, type check, a suite that failed to load,
// a Node line that could not be prepared) counts as one failure, so a red run never reads as green.
import { readFileSync } from 'node:fs'

/** The counts of one run. */
function countsOf(report, status) {
  const failed = report?.numFailedTests || (Number(status) === 0 ? 0 : 1)
  return {
    passed: report?.numPassedTests ?? 0,
    failed,
    skipped: (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0),
  }
}

const line = ({ passed, failed, skipped }) =>
  `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`

function readReport(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return undefined // no report: vitest did not run
  }
}

const args = process.argv.slice(2)
if (args.length === 0 || args.length % 2 !== 0) {
  console.error('usage: node scripts/test-summary.mjs [LABEL=]REPORT STATUS [[LABEL=]REPORT STATUS]…')
  process.exit(2)
}
const total = { passed: 0, failed: 0, skipped: 0 }
for (let i = 0; i < args.length; i += 2) {
  const [label, file] = args[i].includes('=') ? args[i].split(/=(.*)/s) : [args[i], args[i]]
  const counts = countsOf(readReport(file), args[i + 1])
  if (args.length > 2) console.log(`${label}: ${line(counts)}`)
  for (const key of Object.keys(total)) total[key] += counts[key]
}
console.log(line(total))
