import type { Strata } from '@strata/node'
import { type Request, Router } from 'express'

/** Mount after your session middleware: `app.use(guestTokenRoute(strata, 'salesapp', (req) => req.session.user))`. */
export function guestTokenRoute(
  strata: Strata,
  dataAppName: string,
  signedIn: (req: Request) => { id: string; tenantId: string } | undefined,
) {
  return Router().post('/analytics/token', async (req, res) => {
    const user = signedIn(req)
    if (!user) return void res.status(401).json({ error: 'sign in first' })
    const { token } = await strata.guestTokens.create({
      dataAppName,
      clientId: user.tenantId,
      params: { userIdentifier: user.id },
    })
    res.json({ token })
  })
}
