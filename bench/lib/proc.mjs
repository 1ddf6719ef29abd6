import { spawn } from 'node:child_process'
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs'
import net from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

const running = new Set()
// Never leave a child behind, whatever happens to the bench.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/** CPU time (user + system) a process has used so far, in ms (Linux /proc, 10 ms ticks). */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** The process ids of `pid` and of its descendants (the server and its engine process). */
export function processTree(pid) {
  const out = []
  const stack = [pid]
  while (stack.length > 0) {
    const p = stack.pop()
    out.push(p)
    try {
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim()
        if (children) stack.push(...children.split(/\s+/).map(Number))
      }
    } catch {}
  }
  return out
}

/** CPU time of each of `pids` so far, in ms (a process that is gone counts 0). */
export function cpuMsOf(pids) {
  return pids.map((p) => {
    try {
      return cpuMs(p)
    } catch {
      return 0
    }
  })
}

/** A TCP port the OS says is free right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Only what a production start needs: the bench's own variables must not leak in. */
function childEnv(env) {
  const base = {}
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG'])
    if (process.env[name] !== undefined) base[name] = process.env[name]
  return { ...base, ...env }
}

/**
 * Spawns `node [nodeArgs] script` and resolves once `readyPath` answers 200 (polled every
 * 10 ms), with the time from spawn to that answer. With `stdoutFile`, the child's stdout (its
 * log lines) is that file, opened for appending, instead of a pipe this process reads: at
 * `LOG_LEVEL=info` the server writes a line per request, and reading them here would take CPU
 * from the two cores the server and the load share.
 */
export async function startProcess({
  script,
  env,
  nodeArgs = [],
  readyPath = '/health/ready',
  timeoutMs = 30_000,
  stdoutFile,
}) {
  const port = await freePort()
  const started = performance.now()
  const stdoutFd = stdoutFile === undefined ? undefined : openSync(stdoutFile, 'a')
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: childEnv({ HOST: '127.0.0.1', ...env, PORT: String(port) }),
    stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'],
  })
  if (stdoutFd !== undefined) closeSync(stdoutFd) // the child holds its own copy
  running.add(child)
  let stderr = ''
  const keep = (chunk) => {
    stderr = (stderr + chunk).slice(-20_000)
  }
  const output = () => {
    if (stdoutFile === undefined) return stderr
    let lines = ''
    try {
      lines = readFileSync(stdoutFile, 'utf8').slice(-20_000)
    } catch {}
    return `${lines}${stderr}`
  }
  child.stdout?.setEncoding('utf8').on('data', keep)
  child.stderr.setEncoding('utf8').on('data', keep)
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child)
      resolve({ code, signal })
    })
  })
  let gone = false
  void exited.then(() => {
    gone = true
  })
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (gone) throw new Error(`${script} exited before it was ready:\n${output()}`)
    if (performance.now() - started > timeoutMs) {
      child.kill('SIGKILL')
      throw new Error(`${script} not ready within ${timeoutMs} ms:\n${output()}`)
    }
    try {
      const res = await fetch(url + readyPath, { signal: AbortSignal.timeout(1000) })
      await res.arrayBuffer()
      if (res.status === 200) break
    } catch {}
    await sleep(10)
  }
  const readyMs = performance.now() - started
  return {
    url,
    pid: child.pid,
    readyMs,
    output,
    /** Resident set size in bytes (Linux /proc): the server's and its children's (the engine process). */
    rss() {
      return treeRss(child.pid)
    },
    /** SIGTERM (the server drains and exits; a --cpu-prof profile is written), SIGKILL after graceMs. */
    async stop(graceMs = 15_000) {
      if (gone) return exited
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
      const exit = await exited
      clearTimeout(timer)
      return exit
    },
  }
}

/** VmRSS of `pid` and of its descendants, in bytes (a child that is gone counts 0). */
function treeRss(pid) {
  let kb = 0
  const stack = [pid]
  while (stack.length > 0) {
    const p = stack.pop()
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8')
      kb += Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0)
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim()
        if (children) stack.push(...children.split(/\s+/).map(Number))
      }
    } catch {}
  }
  return kb * 1024
}
