import { capabilitiesOf } from '../../connectors/registry.js'
import type { TenancyFacts } from '../../query/tenancy/decide.js'
import type { Embed } from '../embeds/embeds.js'
import type { Source } from './sources.js'

/** What decides a request's tenancy (query/tenancy/decide.ts), read from its source and embed. */
export function tenancyFactsOf(source: Source, embed: Embed, databases?: readonly string[]): TenancyFacts {
  const { datasource, datamart } = source
  return {
    model: source.model,
    settings: datamart?.tenancySettings ?? datasource.tenancySettings,
    tableSettings: embed.accessSettings.tableTenancySettings ?? [],
    owner: datamart ? `datamart ${datamart.name}` : `datasource ${datasource.name}`,
    datasourceName: datasource.name,
    embedId: embed.embedId,
    // read only when a clientId is refused (some callers' sources have no registered type)
    get unit() {
      return capabilitiesOf(datasource.type).tenancyUnit
    },
    ...(databases ? { databases } : {}),
  }
}
