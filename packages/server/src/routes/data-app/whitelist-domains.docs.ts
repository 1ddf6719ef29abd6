import { DATA_APP_KEY, operations } from '../../schemas/openapi.js'

/** The whitelist-domains of a data app; data app key. */
export const docs = operations('data apps', {
  listWhitelistDomains: {
    summary: 'List the origins allowed to load the embeds',
    description:
      "The data app's whitelist-domains: the origins (`host[:port]`, `*.host`) whose pages may call the embed runtime with this data app's guest tokens (CORS). Takes the data app API key.",
    auth: DATA_APP_KEY,
  },
  setWhitelistDomains: {
    summary: 'Replace the origins allowed to load the embeds',
    description:
      'Replaces the whole list (`[]` clears it); effective at once on every instance. Each entry is `host[:port]` or `*.host[:port]`, without a scheme or path. Takes the data app API key.',
    auth: DATA_APP_KEY,
    returns: 'The list as stored.',
  },
})
