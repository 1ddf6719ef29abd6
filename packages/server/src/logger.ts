import pino, { type DestinationStream, type Logger } from 'pino'

/** Field names whose values are secrets wherever they appear in a logged object. */
const SECRET_FIELDS = [
  'authorization',
  'password',
  'currentPassword',
  'token',
  'accessToken',
  'refreshToken',
  'key',
  'apiKey',
  'secret',
  'credentials',
  'privateKey',
  'privateKeyPass',
  'sshPrivateKey',
  'credentials_json',
  'cookie',
]

const SECRET_QUERY = /([?&](?:token|key|apiKey|password|secret)=)[^&]*/gi

/** A URL with the values of secret-looking query parameters replaced. */
export const redactUrl = (url: string): string => url.replace(SECRET_QUERY, '$1[REDACTED]')

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
        censor: '[REDACTED]',
      },
      serializers: {
        err: pino.stdSerializers.err,
      },
    },
    destination,
  )
}
