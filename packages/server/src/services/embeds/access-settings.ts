import type { Static } from '@fastify/type-provider-typebox'
import { ApiError, badRequest } from '../../errors.js'
import { check } from '../../schemas/check.js'
import { AccessSettings, REQUIRED_ON_CREATE } from '../../schemas/embeds.js'
import { fieldsError, missingFields } from '../../validation/fields.js'
import type { EmbedType } from './embed.js'

export type AccessSettingsInput = Static<typeof AccessSettings>

/**
 * A new embed's accessSettings: required for a dashboard embed (with its datamart), optional for
 * a metric embed; the fields every embed needs present. Whether the datamart exists is the
 * caller's check.
 */
export function createSettings(
  embedType: EmbedType,
  settings: Record<string, unknown> | undefined,
): AccessSettingsInput {
  if (settings === undefined) {
    if (embedType === 'dashboard') throw badRequest('accessSettings is required for dashboard embeds')
    return {}
  }
  const parsed = check(AccessSettings, settings, 'accessSettings')
  const required = embedType === 'dashboard' ? ['datamartName', ...REQUIRED_ON_CREATE] : REQUIRED_ON_CREATE
  const missing = required.filter((field) => parsed[field as keyof AccessSettingsInput] === undefined)
  if (missing.length > 0) throw fieldsError(missingFields('accessSettings', missing))
  return withJoinModel(parsed)
}

/**
 * A partial accessSettings of an update (INVALID_ACCESS_SETTINGS when malformed); joinModel and
 * the legacy isIncrementalJoin both sent and disagreeing is CONFLICTING_UPDATE.
 */
export function settingsPatch(settings: object): AccessSettingsInput {
  const patch = check(
    AccessSettings,
    settings,
    'accessSettings',
    (message, details) => new ApiError('INVALID_ACCESS_SETTINGS', 400, message, details),
  )
  if (patch.joinModel !== undefined && patch.isIncrementalJoin !== undefined) {
    if ((patch.joinModel === 'multi') !== patch.isIncrementalJoin) {
      throw new ApiError(
        'CONFLICTING_UPDATE',
        409,
        'joinModel and the legacy isIncrementalJoin disagree; send joinModel only',
      )
    }
  }
  return patch
}

/** joinModel is preferred; the legacy isIncrementalJoin maps onto it (true = multi). */
function withJoinModel(settings: AccessSettingsInput): AccessSettingsInput {
  if (settings.joinModel !== undefined || settings.isIncrementalJoin === undefined) return settings
  return { ...settings, joinModel: settings.isIncrementalJoin ? 'multi' : 'single' }
}
