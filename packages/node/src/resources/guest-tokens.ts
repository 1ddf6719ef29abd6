import { type Api, unwrap } from '../transport.js'
import type { RequestBody, ResponseBody } from '../types.js'

/** Guest tokens: what a backend mints per signed-in end user, for the web component (data app key). */
export class GuestTokens {
  constructor(private readonly api: Api) {}

  /** Mints a token for one end user: `clientId` picks the tenant; `params` and `permissions` narrow it. */
  create(body: RequestBody<'createGuestToken'>): Promise<ResponseBody<'createGuestToken'>> {
    return unwrap(this.api.POST('/api/v2/guest-token/create', { body }))
  }

  /**
   * The first form of the token, for backends written against it: `workspaceName` in place of
   * `dataAppName`, the key's data app narrowed to that workspace's dashboards (and to one with
   * `params.dashboard.id`).
   */
  createV1(body: RequestBody<'createGuestTokenV1'>): Promise<ResponseBody<'createGuestTokenV1'>> {
    return unwrap(this.api.POST('/api/v1/guest-token/create', { body }))
  }
}
