/**
 * A deleted embed answers its live guest tokens 401 AUTHENTICATION_ERROR, as the spec has it,
 * with `details.reason: "EMBED_GONE"` so the web component can tell it from an expired token
 * (where a new token helps) and stop asking for one (issue 24, item 14). Both delete paths: the
 * preferred DELETE and the legacy POST with ?embedId=.
 */
import { describe, expect, it } from 'vitest'
import { ACCESS } from '../helpers/analytics.js'
import { expectError } from '../helpers/expect-error.js'
import { expiredToken } from '../helpers/expired-token.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

describe.skipIf(!hasPg)('a deleted embed is told apart from an expired token', () => {
  const { t, a } = useAnalytics('sqlite')

  const embed = async () =>
    (
      await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'sales-overview',
        embedType: 'dashboard',
        workspaceName: 'main',
        accessSettings: ACCESS,
      })
    ).id as string
  const token = async (extra: object = {}) =>
    (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId: 'acme',
        ...extra,
      })
    ).token as string

  const deletes: [string, (embedId: string) => Promise<unknown>][] = [
    ['DELETE /api/v2/data-app/embeds', (id) => a.ok('DELETE', `/api/v2/data-app/embeds?embedId=${id}`, a.dataAppKey)],
    [
      'POST /api/v2/data-app/embeds?embedId= (legacy)',
      (id) => a.ok('POST', `/api/v2/data-app/embeds?embedId=${id}`, a.dataAppKey, { embedId: id }),
    ],
  ]

  it.each(deletes)('after %s every runtime call answers 401 with reason EMBED_GONE', async (_path, remove) => {
    const embedId = await embed()
    const tokens = [await token(), await token({ params: { allowedEmbeds: [embedId] } })]
    for (const t of tokens) await a.ok('GET', `/api/v2/embed/runtime/${embedId}`, t)
    await remove(embedId)
    for (const t of tokens) {
      for (const [method, path, body] of [
        ['GET', '', undefined],
        ['POST', '/query', { metricId: 'revenue' }],
        ['GET', '/metrics/revenue/download', undefined],
      ] as const) {
        const res = await a.call(method, `/api/v2/embed/runtime/${embedId}${path}`, t, body)
        expectError(res, 401, 'AUTHENTICATION_ERROR', new RegExp(`^Embed ${embedId} does not exist or was deleted$`))
        expect(res.json().error.details).toEqual({ reason: 'EMBED_GONE' })
      }
    }
  })

  it('an expired or invalid token is a plain 401, without the reason', async () => {
    const embedId = await embed()
    const expired = await expiredToken(t.app, await token())
    for (const t of [expired, 'gt_1.not-a-token']) {
      const res = await a.call('GET', `/api/v2/embed/runtime/${embedId}`, t)
      expectError(res, 401, 'AUTHENTICATION_ERROR')
      expect(res.json().error.details).toBeUndefined()
    }
  })
})
