/**
 * The configuration the server under test runs with (bench/README.md, "What runs"): the shipped
 * defaults, `LOG_LEVEL=info` with its access line per request and the rate limiter on, with a
 * global limit the load never reaches (10⁹ per 2-minute window; a full run sends a few million
 * requests in all). `--quiet` measures the earlier configuration instead, as a reference only:
 * logging at `warn` (no access lines) and no limiter.
 */
export const SHIPPED_ENV = { LOG_LEVEL: 'info', RATE_LIMIT: '1000000000' }
export const QUIET_ENV = { LOG_LEVEL: 'warn', RATE_LIMIT: '0' }

/** The logging and limiter variables for a run's options (`opts.quiet`: the reference). */
export const serverEnv = (opts) => (opts.quiet ? QUIET_ENV : SHIPPED_ENV)
