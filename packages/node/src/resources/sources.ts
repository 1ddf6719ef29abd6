import { type Api, unwrap } from '../transport.js'
import type { QueryParams, RequestBody, ResponseBody } from '../types.js'

/** A file's content as an upload takes it. */
export type FileContent = string | Uint8Array | ArrayBuffer | Blob

/** The organization's datasources and the files of `csv` datasources (service token). */
export class Datasources {
  constructor(private readonly api: Api) {}

  /** Tests the connection, reads the schema and stores the datasource (credentials encrypted). */
  create(body: RequestBody<'createDatasource'>): Promise<ResponseBody<'createDatasource'>> {
    return unwrap(this.api.POST('/api/v2/datasource', { body }))
  }

  update(body: RequestBody<'updateDatasource'>): Promise<ResponseBody<'updateDatasource'>> {
    return unwrap(this.api.PUT('/api/v2/datasource', { body }))
  }

  /** The datasources, without their credentials. */
  list(query: QueryParams<'listDatasources'> = {}): Promise<ResponseBody<'listDatasources'>> {
    return unwrap(this.api.GET('/api/v2/datasource', { params: { query } }))
  }

  delete(query: QueryParams<'deleteDatasource'>): Promise<ResponseBody<'deleteDatasource'>> {
    return unwrap(this.api.DELETE('/api/v2/datasource', { params: { query } }))
  }

  /** Reads the warehouse's schema again (after its tables changed). */
  sync(body: RequestBody<'syncDatasource'>): Promise<ResponseBody<'syncDatasource'>> {
    return unwrap(this.api.POST('/api/v2/datasource/sync', { body }))
  }

  /** The credential form of every datasource type: its fields, labels, and which are secret. */
  types(): Promise<ResponseBody<'listDatasourceTypes'>> {
    return unwrap(this.api.GET('/api/v2/datasource/types'))
  }

  /** The tables and columns the last introspection (create, update, sync) found. */
  tables(query: QueryParams<'listDatasourceTables'>): Promise<ResponseBody<'listDatasourceTables'>> {
    return unwrap(this.api.GET('/api/v2/datasource/tables', { params: { query } }))
  }

  /**
   * A datasource's stored credentials without their secrets: what an edit starts from (the names
   * of the secret fields that hold a value are in `storedSecrets`; an update that leaves a secret
   * out keeps it).
   */
  credentials(query: QueryParams<'datasourceSettings'>): Promise<ResponseBody<'datasourceSettings'>> {
    return unwrap(this.api.GET('/api/v2/datasource/credentials', { params: { query } }))
  }

  /** Stores a file (`.csv`, `.parquet`, `.json`) for `csv` datasources to read: its path and size. */
  uploadFile(
    path: { datasourceName: string; fileName: string },
    content: FileContent,
  ): Promise<ResponseBody<'uploadDatasourceFile'>> {
    return unwrap(
      this.api.PUT('/api/v2/datasource/files/{datasourceName}/{fileName}', {
        params: { path },
        headers: { 'content-type': 'application/octet-stream' },
        body: content,
        bodySerializer: (raw: unknown) => raw as FileContent,
      }),
    )
  }
}

/** Datamarts: the tables of a datasource that workspaces build on, with their tenant column (service token). */
export class Datamarts {
  constructor(private readonly api: Api) {}

  create(body: RequestBody<'createDatamart'>): Promise<ResponseBody<'createDatamart'>> {
    return unwrap(this.api.POST('/api/v2/data-app/datamarts', { body }))
  }

  update(body: RequestBody<'updateDatamart'>): Promise<ResponseBody<'updateDatamart'>> {
    return unwrap(this.api.PUT('/api/v2/data-app/datamarts', { body }))
  }

  list(query: QueryParams<'listDatamarts'> = {}): Promise<ResponseBody<'listDatamarts'>> {
    return unwrap(this.api.GET('/api/v2/data-app/datamarts', { params: { query } }))
  }

  delete(query: QueryParams<'deleteDatamart'>): Promise<ResponseBody<'deleteDatamart'>> {
    return unwrap(this.api.DELETE('/api/v2/data-app/datamart', { params: { query } }))
  }
}

/** Workspaces: where dashboards live, over a datamart or a datasource (service token). */
export class Workspaces {
  constructor(private readonly api: Api) {}

  create(body: RequestBody<'createWorkspace'>): Promise<ResponseBody<'createWorkspace'>> {
    return unwrap(this.api.POST('/api/v2/workspace', { body }))
  }

  update(body: RequestBody<'updateWorkspace'>): Promise<ResponseBody<'updateWorkspace'>> {
    return unwrap(this.api.PUT('/api/v2/workspace', { body }))
  }

  list(): Promise<ResponseBody<'listWorkspaces'>> {
    return unwrap(this.api.GET('/api/v2/workspace'))
  }

  delete(query: QueryParams<'deleteWorkspace'>): Promise<ResponseBody<'deleteWorkspace'>> {
    return unwrap(this.api.DELETE('/api/v2/workspace', { params: { query } }))
  }

  /** The workspace's dashboards, embedded or not, a page of them when paginating. */
  listDashboards(body: RequestBody<'listWorkspaceDashboards'>): Promise<ResponseBody<'listWorkspaceDashboards'>> {
    return unwrap(this.api.POST('/api/v2/workspace/dashboards', { body }))
  }
}
