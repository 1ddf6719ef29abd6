import { LRUCache } from 'lru-cache'
import { ApiError } from '../../errors.js'
import { buildModel, type DatamartModel, type SemanticModel } from '../../query/model.js'
import type { Datamart, Datamarts } from '../datamarts/datamarts.js'
import type { Datasource, Datasources } from '../datasources/datasources.js'
import type { Workspace } from '../workspaces/workspaces.js'

/** Where a metric's query runs and the model it compiles against. */
export interface Source {
  readonly datasource: Datasource
  readonly datamart: Datamart | undefined
  readonly model: SemanticModel
  /** Identifies this model version in cache keys. */
  readonly version: string
}

export interface SourceHints {
  readonly datasourceName?: string | undefined
  readonly dataMartName?: string | undefined
}

/**
 * Resolves a workspace (and the request's datasourceName/dataMartName for MULTI_ workspaces)
 * to its datasource, datamart and semantic model; models are built once per version.
 */
export class Sources {
  /** Bounded by entries and by an estimate of their bytes (a wide warehouse has thousands of columns). */
  private readonly models = new LRUCache<string, SemanticModel>({
    max: 1000,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (model) => 1024 + [...model.tables.values()].reduce((n, t) => n + 512 + 256 * t.columns.size, 0),
  })

  constructor(
    private readonly datasources: Datasources,
    private readonly datamarts: Datamarts,
  ) {}

  /**
   * `dataMartName` must name a datamart of the workspace (any, for MULTI_DATAMART);
   * `datasourceName` likewise (ignored for MULTI_DATAMART, which is bound to no datasource).
   */
  async resolve(workspace: Workspace, hints: SourceHints = {}): Promise<Source> {
    const org = workspace.organizationId
    const type = workspace.connectionType
    let datamart: Datamart | undefined
    if (hints.dataMartName !== undefined) {
      datamart = await this.datamarts.byName(org, hints.dataMartName)
      if (!datamart || (type !== 'MULTI_DATAMART' && datamart.id !== workspace.datamartId)) {
        throw new ApiError(
          'DATAMART_NAME_ERROR',
          400,
          `No datamart ${hints.dataMartName} in workspace ${workspace.name}`,
        )
      }
    } else if (workspace.datamartId) {
      datamart = await this.datamarts.get(workspace.datamartId)
    }
    let datasource: Datasource | undefined
    if (hints.datasourceName !== undefined && type !== 'MULTI_DATAMART') {
      datasource = await this.datasources.byName(org, hints.datasourceName)
      const expected = datamart?.datasourceId ?? workspace.datasourceId
      if (!datasource || (type !== 'MULTI_DATASOURCE' && datasource.id !== expected)) {
        throw new ApiError(
          'DATASOURCE_NAME_ERROR',
          400,
          `No datasource ${hints.datasourceName} in workspace ${workspace.name}`,
        )
      }
    }
    if (!datasource) {
      const id = datamart?.datasourceId ?? workspace.datasourceId
      if (!id) {
        const multiMart = type === 'MULTI_DATAMART'
        throw new ApiError(
          multiMart ? 'DATAMART_NAME_ERROR' : 'DATASOURCE_NAME_ERROR',
          400,
          `Workspace ${workspace.name} is ${type}: name the ${multiMart ? 'dataMartName' : 'datasourceName'}`,
        )
      }
      datasource = await this.datasources.get(id)
    }
    const version = `${datasource.id}@${datasource.schemaVersion}/${datamart ? `${datamart.id}@${datamart.updatedAt}` : '-'}`
    let model = this.models.get(version)
    if (!model) {
      model = buildModel(datasource.tables, datamart && toDatamartModel(datamart))
      this.models.set(version, model)
    }
    return { datasource, datamart, model, version }
  }
}

/** The stored datamart (list-item shape) as the model builder reads it. */
function toDatamartModel(datamart: Datamart): DatamartModel {
  return {
    tableList: datamart.tables.map((t) => ({
      schemaName: t.schemaName,
      name: t.tableName,
      label: t.label,
      clientColumn: t.clientColumn,
      isHide: t.isHide,
      columns: t.datamartTableColumns
        .filter(
          (c) =>
            c.isCustomColumn || c.alias || c.label || c.isHide || c.format || c.isTimezoneConversion || c.defaultSort,
        )
        .map((c) => ({
          name: c.name,
          alias: c.alias,
          label: c.label,
          isHide: c.isHide,
          ...(c.format ? { format: c.format } : {}),
          isCustomColumn: c.isCustomColumn,
          sql: c.sql,
          isTimezoneConversion: c.isTimezoneConversion,
          defaultSort: c.defaultSort,
        })),
    })),
    relationships: datamart.relationships,
  }
}
