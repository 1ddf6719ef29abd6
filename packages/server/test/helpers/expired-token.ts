import type { FastifyInstance } from 'fastify'

/**
 * A sealed guest token with the claims of `token` that expired a moment ago: what a token minted
 * with a short `expiryTime` becomes, without waiting (the mint refuses lifetimes under 1 s).
 */
export async function expiredToken(app: FastifyInstance, token: string): Promise<string> {
  const claims = await app.services.guestTokens.verify(token)
  if (!claims) throw new Error('expiredToken: the token given is not live')
  return `gt_1.${app.services.keyring.sealToken(JSON.stringify({ ...claims, expiresAt: Date.now() - 1 }))}`
}
