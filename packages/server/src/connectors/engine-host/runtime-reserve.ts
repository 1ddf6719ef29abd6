import { execFile } from 'node:child_process'

/** Prints the process's VmData (kB) from /proc: what RLIMIT_DATA counts. */
const PRINT_VM_DATA =
  "process.stdout.write(/VmData:\\s*(\\d+)/.exec(require('fs').readFileSync('/proc/self/status', 'utf8'))[1])"

const measured = new Map<string, Promise<number>>()

/**
 * The bytes of RLIMIT_DATA a bare Node of `execPath`, started with `flags` (the engine's own),
 * takes before running anything: its VmData right after start. On Node 20 about 50 MB; from
 * Node 24 on about 570 MB, nearly all of it V8's code range, address space reserved writable at
 * start (so counted by RLIMIT_DATA) but not memory until code is compiled into it. The engine
 * process's RLIMIT_DATA is its ceiling plus this, so that the ceiling bounds what the engine
 * allocates on every Node line (without it a ceiling under about 600 MB stops Node 24 before it
 * starts). Not counted: a loader thread started later (tsx's, on Node 26, when the engine runs
 * from the sources: a second isolate with its own code range). Measured once per binary and flags;
 * 0 where it cannot be (no /proc).
 */
export function nodeReservedBytes(flags: readonly string[] = [], execPath: string = process.execPath): Promise<number> {
  const key = JSON.stringify([execPath, ...flags])
  let bytes = measured.get(key)
  if (!bytes) {
    bytes = new Promise<number>((resolve) => {
      execFile(execPath, [...flags, '-e', PRINT_VM_DATA], { env: {}, timeout: 15_000 }, (err, stdout) => {
        const kb = Number(stdout)
        resolve(err || !Number.isSafeInteger(kb) ? 0 : kb * 1024)
      })
    })
    measured.set(key, bytes)
  }
  return bytes
}
