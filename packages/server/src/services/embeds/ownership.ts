import type { PrincipalOf } from '../../auth/principal.js'
import type { ApiError } from '../../errors.js'
import type { Embed } from './embed.js'

type DataApp = PrincipalOf<'dataApp'>

/**
 * The embed when it is this data app's. Unknown: `missing`; another data app's: `elsewhere`
 * (routes that tell the two apart), else `missing` too.
 */
export function ownedEmbed(
  app: DataApp,
  embed: Embed | undefined,
  missing: () => ApiError,
  elsewhere: () => ApiError = missing,
): Embed {
  if (!embed) throw missing()
  if (embed.dataAppId !== app.dataAppId) throw elsewhere()
  return embed
}
