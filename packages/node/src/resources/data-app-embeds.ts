import { type Api, unwrap } from '../transport.js'
import type { QueryParams, RequestBody, ResponseBody } from '../types.js'

/**
 * A data app's embeds and allowed origins, named by the data app, with the service token: the
 * same operations as `embeds` and `whitelistDomains`, without holding that data app's key.
 */
export class DataAppEmbeds {
  constructor(private readonly api: Api) {}

  list(dataAppName: string, query: QueryParams<'listAppEmbeds'> = {}): Promise<ResponseBody<'listAppEmbeds'>> {
    return unwrap(this.api.GET('/api/v2/data-apps/{dataAppName}/embeds', { params: { path: { dataAppName }, query } }))
  }

  /** One embed's access settings as stored. */
  accessSettings(dataAppName: string, embedId: string): Promise<ResponseBody<'readAppEmbedAccess'>> {
    return unwrap(
      this.api.GET('/api/v2/data-apps/{dataAppName}/embeds/access-settings', {
        params: { path: { dataAppName }, query: { embedId } },
      }),
    )
  }

  create(dataAppName: string, body: RequestBody<'createAppEmbed'>): Promise<ResponseBody<'createAppEmbed'>> {
    return unwrap(this.api.POST('/api/v2/data-apps/{dataAppName}/embeds', { params: { path: { dataAppName } }, body }))
  }

  /** Merges a partial `accessSettings`; effective at once for live guest tokens. */
  update(dataAppName: string, body: RequestBody<'updateAppEmbed'>): Promise<ResponseBody<'updateAppEmbed'>> {
    return unwrap(this.api.PUT('/api/v2/data-apps/{dataAppName}/embeds', { params: { path: { dataAppName } }, body }))
  }

  delete(dataAppName: string, query: QueryParams<'deleteAppEmbed'>): Promise<ResponseBody<'deleteAppEmbed'>> {
    return unwrap(
      this.api.DELETE('/api/v2/data-apps/{dataAppName}/embeds', { params: { path: { dataAppName }, query } }),
    )
  }

  whitelist(dataAppName: string): Promise<ResponseBody<'listAppWhitelistDomains'>> {
    return unwrap(
      this.api.GET('/api/v2/data-apps/{dataAppName}/whitelist-domains', { params: { path: { dataAppName } } }),
    )
  }

  /** Replaces the allowed origins (`[]` clears them). */
  setWhitelist(
    dataAppName: string,
    body: RequestBody<'setAppWhitelistDomains'>,
  ): Promise<ResponseBody<'setAppWhitelistDomains'>> {
    return unwrap(
      this.api.PUT('/api/v2/data-apps/{dataAppName}/whitelist-domains', { params: { path: { dataAppName } }, body }),
    )
  }
}
