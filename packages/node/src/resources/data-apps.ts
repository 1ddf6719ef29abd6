import { type Api, unwrap } from '../transport.js'
import type { QueryParams, RequestBody, ResponseBody } from '../types.js'

/** The organization's data apps (service token). */
export class DataApps {
  constructor(private readonly api: Api) {}

  /** Creates a data app; the answer holds its first API key, shown only this once. */
  create(body: RequestBody<'createDataApp'>): Promise<ResponseBody<'createDataApp'>> {
    return unwrap(this.api.POST('/api/v2/data-app', { body }))
  }

  /** Every data app with its embeds. */
  list(): Promise<ResponseBody<'listDataApps'>> {
    return unwrap(this.api.GET('/api/v2/data-app'))
  }

  /**
   * Renames the data app `name` to `updateName`. Its keys, embeds and minted guest tokens keep
   * working; new guest tokens name it `updateName`.
   */
  rename(body: RequestBody<'renameDataApp'>): Promise<ResponseBody<'renameDataApp'>> {
    return unwrap(this.api.PUT('/api/v2/data-app', { body }))
  }
}

/** A data app's API keys (service token); a key's secret is answered only when it is created. */
export class ApiKeys {
  constructor(private readonly api: Api) {}

  /** Creates another key for a data app. */
  create(body: RequestBody<'createApiToken'>): Promise<ResponseBody<'createApiToken'>> {
    return unwrap(this.api.POST('/api/v2/data-app/api-tokens', { body }))
  }

  /** A data app's keys, without their secrets. */
  list(query: QueryParams<'listApiTokens'>): Promise<ResponseBody<'listApiTokens'>> {
    return unwrap(this.api.GET('/api/v2/data-app/api-tokens', { params: { query } }))
  }

  /** Revokes a key: every instance refuses it from then on. */
  revoke(query: QueryParams<'revokeApiToken'>): Promise<ResponseBody<'revokeApiToken'>> {
    return unwrap(this.api.DELETE('/api/v2/data-app/api-tokens', { params: { query } }))
  }
}

/** The domains allowed to embed the data app's dashboards (data app key). */
export class WhitelistDomains {
  constructor(private readonly api: Api) {}

  list(): Promise<ResponseBody<'listWhitelistDomains'>> {
    return unwrap(this.api.GET('/api/v2/data-app/whitelist-domains'))
  }

  /** Replaces the list. */
  set(body: RequestBody<'setWhitelistDomains'>): Promise<ResponseBody<'setWhitelistDomains'>> {
    return unwrap(this.api.PUT('/api/v2/data-app/whitelist-domains', { body }))
  }
}
