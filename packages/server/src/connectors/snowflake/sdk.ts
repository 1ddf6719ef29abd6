/**
 * Loads snowflake-sdk on first use (never at start: only the connector module the registry loads
 * lazily imports this file) and configures it once:
 * - importing the SDK starts its platform detection (telemetry it sends at login), which probes
 *   cloud metadata endpoints and calls AWS STS with whatever AWS credentials the process has.
 *   Unless the operator chose otherwise, SNOWFLAKE_DISABLE_PLATFORM_DETECTION is set before the
 *   import, so a Strata server makes no such calls;
 * - the SDK's own logger (a `snowflake.log` file in the working directory by default) is
 *   replaced by a silent one: our errors carry the driver's reason, and nothing of a session
 *   is written to disk.
 */
import type * as Snowflake from 'snowflake-sdk'

let loaded: Promise<typeof Snowflake> | undefined

const silent = { error() {}, warn() {}, info() {}, debug() {}, trace() {} }

export function loadSdk(): Promise<typeof Snowflake> {
  loaded ??= (async () => {
    process.env.SNOWFLAKE_DISABLE_PLATFORM_DETECTION ??= 'true'
    process.env.SF_TELEMETRY_DISABLE_CONNECTION_SHAPE ??= 'true'
    const module = (await import('snowflake-sdk')) as typeof Snowflake & { default?: typeof Snowflake }
    const sdk = module.default ?? module
    sdk.configure({ customLogger: silent, additionalLogToConsole: false })
    return sdk
  })()
  return loaded
}
