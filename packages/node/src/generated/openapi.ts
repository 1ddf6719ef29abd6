/**
 * The types of the backend operations of the Strata API.
 * Generated from the server's /openapi.json by `npm run generate -w packages/node`: do not edit.
 */

export interface paths {
    "/api/v2/data-app": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the data apps with their embeds
         * @description Every data app of the organization with its embeds (names and ids). Takes the service token.
         */
        get: operations["listDataApps"];
        /**
         * Rename a data app
         * @description `{ name, updateName }`: the data app `name` is called `updateName` from now on (letters and digits, unique in the organization). Its API keys, embeds and the guest tokens already minted refer to it by id and keep working; the next request with one of its keys sees the new name (a v2 guest token then names it as `dataAppName`). Takes the service token; a bad one answers 400 `AUTHENTICATION_ERROR`, as the hosted API has it for this path.
         */
        put: operations["renameDataApp"];
        /**
         * Create a data app and its first API key
         * @description Creates a data app (an alphanumeric name, unique in the organization) and its first data app API key. The key is shown only in this answer: keep it on your backend, never in a page. Takes the service token.
         */
        post: operations["createDataApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/api-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the API keys of a data app (identifiers, never secrets)
         * @description The active keys of a data app: identifier, name, description and creation time; pages of 10 with `isPagination=true`. Takes the service token (a bad one: 400 `AUTHENTICATION_ERROR`).
         */
        get: operations["listApiTokens"];
        put?: never;
        /**
         * Create another API key for a data app
         * @description Adds a data app API key (for rotation or per backend); the secret is shown only in this answer. Takes the service token; a bad one answers 400 `AUTHENTICATION_ERROR`, as the hosted API has it for this path.
         */
        post: operations["createApiToken"];
        /**
         * Revoke an API key at once
         * @description Revokes one key of a data app, on every instance at once: requests and guest tokens minted with it stop working. Takes the service token (a bad one: 400 `AUTHENTICATION_ERROR`).
         */
        delete: operations["revokeApiToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-apps/{dataAppName}/embeds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the embeds of a data app (organization token)
         * @description As `GET /api/v2/data-app/embeds`. The same as the data app key route, for the data app named in the path, with the service token or the admin access token (what the studio uses, so the secret key never has to be in the browser).
         */
        get: operations["listAppEmbeds"];
        /**
         * Change the access settings of an embed of a data app (organization token)
         * @description As `PUT /api/v2/data-app/embeds`: a partial `accessSettings`, effective at once for live guest tokens. The same as the data app key route, for the data app named in the path, with the service token or the admin access token (what the studio uses, so the secret key never has to be in the browser).
         */
        put: operations["updateAppEmbed"];
        /**
         * Create an embed for a data app (organization token)
         * @description As `POST /api/v2/data-app/embeds`: a dashboard or one of its metrics, with `accessSettings`. The same as the data app key route, for the data app named in the path, with the service token or the admin access token (what the studio uses, so the secret key never has to be in the browser).
         */
        post: operations["createAppEmbed"];
        /**
         * Delete an embed of a data app (organization token)
         * @description As `DELETE /api/v2/data-app/embeds`: its guest tokens stop at once. The same as the data app key route, for the data app named in the path, with the service token or the admin access token (what the studio uses, so the secret key never has to be in the browser).
         */
        delete: operations["deleteAppEmbed"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-apps/{dataAppName}/embeds/access-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the access settings of an embed of a data app (organization token)
         * @description The embed's `accessSettings` as stored (what the export's `_meta.embedDataAppAccessSetting` shows), to fill a settings form. The same as the data app key route, for the data app named in the path, with the service token or the admin access token (what the studio uses, so the secret key never has to be in the browser).
         */
        get: operations["readAppEmbedAccess"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-apps/{dataAppName}/whitelist-domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the origins allowed to load a data app’s embeds (organization token)
         * @description As `GET /api/v2/data-app/whitelist-domains`. The same as the data app key route, for the data app named in the path, with the service token or the admin access token (what the studio uses, so the secret key never has to be in the browser).
         */
        get: operations["listAppWhitelistDomains"];
        /**
         * Replace the origins allowed to load a data app’s embeds (organization token)
         * @description As `PUT /api/v2/data-app/whitelist-domains`: the whole list, each entry `host[:port]` or `*.host[:port]` without a scheme or path; `[]` clears it. The same as the data app key route, for the data app named in the path, with the service token or the admin access token (what the studio uses, so the secret key never has to be in the browser).
         */
        put: operations["setAppWhitelistDomains"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/datasource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List datasources
         * @description The datasources of the organization (name, type, creation time), never their credentials; pages of 10 with `isPagination=true`. Takes the service token.
         */
        get: operations["listDatasources"];
        /**
         * Replace the credentials of a datasource; tenancy settings merge
         * @description `credentials.name` selects the datasource and `datasourceType` must be its type; the credentials are replaced as a whole, checked, tested and the schema introspected again, as on create. A secret field left out keeps its stored value (`null` removes it), as long as no host, URL or port field changed: then every stored secret must be sent again. `tenancySettings` merge into the stored ones (null removes a field). Cached results of the datasource are dropped on every instance. Takes the service token.
         */
        put: operations["updateDatasource"];
        /**
         * Create a datasource: check the credentials, connect, cache the schema
         * @description Validates the credentials of `datasourceType` (one schema per type: unknown fields refused, no coercion), tests the connection, introspects the tables and saves the datasource with its credentials encrypted. Nothing is saved when a step fails. When the introspection finds no table the datasource is saved and the answer carries `data.warnings`. Takes the service token.
         */
        post: operations["createDatasource"];
        /**
         * Delete a datasource no datamart or workspace uses
         * @description Deletes the datasource and closes its connection pool on every instance; files uploaded under its name stay in FILES_ROOT. Refused, naming them, while a datamart or a DATASOURCE workspace uses it. Takes the service token.
         */
        delete: operations["deleteDatasource"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/datasource/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refresh the cached schema of a datasource
         * @description Introspects the tables again (`input.datasourceId`: the `id` from create, or the name) and bumps the schema version, which drops the cached results that depended on the old one. Takes the service token.
         */
        post: operations["syncDatasource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/datasource/types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The credential form of every datasource type
         * @description For each `datasourceType`: its fields in order, each with its label, description, kind (text, longText, integer, boolean, choice), whether it is required and whether it is secret (never answered back). Read from the schemas that validate the credentials; the studio draws its datasource form from it. `supported: false`: the credentials validate but this server cannot connect to the type. Takes the service token.
         */
        get: operations["listDatasourceTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/datasource/tables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tables and columns of a datasource
         * @description The schema the last introspection (create, update or sync) found: every table with its columns, their data type and the engine's own type name. No credential field. Sync first to see tables created since. Takes the service token.
         */
        get: operations["listDatasourceTables"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/datasource/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The stored credentials of a datasource, without its secrets
         * @description What an edit form starts from: the stored credential fields except the secret ones, the names of the secret fields that hold a value (never their values), and the tenancy settings. An update that leaves a secret field out keeps it. Takes the service token.
         */
        get: operations["datasourceSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/datasource/files/{datasourceName}/{fileName}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Store a file (.csv, .parquet, .json) for csv datasources
         * @description Stores the raw body, whatever its Content-Type, as `FILES_ROOT/<datasourceName>/<fileName>`, replacing a file of that name once the upload is complete (a refused or cut-off upload leaves nothing). Use the answered `path`, or its folder, as the `path` of a `csv` datasource. Takes the service token.
         */
        put: operations["uploadDatasourceFile"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/datamarts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List datamarts
         * @description The datamarts of the organization with their tenancy and datasource; with details expanded, their tables, columns and relationships too. Pages of 10 when paginating. `expandDetails` omitted expands; when given, only the string `true` does. Takes the service token.
         */
        get: operations["listDatamarts"];
        /**
         * Replace the tables and relationships of a datamart
         * @description Replaces the table configuration of the datamart `datamartName` as a whole (checked as on create). Cached results that used it are dropped on every instance. Takes the service token.
         */
        put: operations["updateDatamart"];
        /**
         * Create a datamart over a datasource
         * @description A datamart is the model a workspace queries: the tables of one datasource (with labels, hidden and custom columns, a client column per table) and the relationships that join them. Every table and column is checked against the cached schema of the datasource. Takes the service token.
         */
        post: operations["createDatamart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/datamart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a datamart no workspace uses
         * @description Deletes the datamart; refused while a workspace uses it. Takes the service token.
         */
        delete: operations["deleteDatamart"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workspaces
         * @description The workspaces of the organization, oldest first, with what each is bound to. Takes the service token.
         */
        get: operations["listWorkspaces"];
        /**
         * Update a workspace
         * @description Replaces the settings of the workspace `name` (DATASOURCE needs `datasourceName`, DATAMART needs `datamartName`; MULTI_DATASOURCE and MULTI_DATAMART name theirs on each metric query.). Cached results of its dashboards are dropped on every instance. Takes the service token.
         */
        put: operations["updateWorkspace"];
        /**
         * Create a workspace
         * @description A workspace binds dashboards to what they query: DATASOURCE needs `datasourceName`, DATAMART needs `datamartName`; MULTI_DATASOURCE and MULTI_DATAMART name theirs on each metric query. Takes the service token.
         */
        post: operations["createWorkspace"];
        /**
         * Delete a workspace with no dashboard
         * @description Deletes the workspace; refused, naming them, while dashboards live in it. Takes the service token.
         */
        delete: operations["deleteWorkspace"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspace/dashboards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * List a workspace's dashboards
         * @description Every dashboard of the workspace `workspaceName` (`name` and `externalDashboardId`, the id embeds and guest tokens name), oldest first, whether or not a data app embeds it; pages of 10 with `isPagination: true` (typed values in the body, `pageNumber` 1-based). Takes the service token.
         */
        post: operations["listWorkspaceDashboards"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/whitelist-domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the origins allowed to load the embeds
         * @description The data app's whitelist-domains: the origins (`host[:port]`, `*.host`) whose pages may call the embed runtime with this data app's guest tokens (CORS). Takes the data app API key.
         */
        get: operations["listWhitelistDomains"];
        /**
         * Replace the origins allowed to load the embeds
         * @description Replaces the whole list (`[]` clears it); effective at once on every instance. Each entry is `host[:port]` or `*.host[:port]`, without a scheme or path. Takes the data app API key.
         */
        put: operations["setWhitelistDomains"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/export-dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Export a dashboard document
         * @description Answers the dashboard document (what import reads) as a JSON attachment `dashboard-{dashboardId}.json`, with `_meta`. Takes the service token; a bad one answers 400 `AUTH_ERROR`, as the hosted API has it for this path.
         */
        post: operations["exportDashboard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/import-dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a dashboard document into a workspace
         * @description Creates a dashboard from `importDashboardData` (a dashboard document: the `data` of an export; a dashboard the hosted service exported is read into one, what has no place in it named in `data.warnings`). The document is checked against the model of the workspace (its datasource or datamart), then every metric, SQL metrics included, is compiled and run on the warehouse with no rows returned. `schemaPairs` rename schemas in the document first. `dashboardId` is generated when absent; an existing one is refused. Takes the service token; a bad one answers 400 `AUTHENTICATION_ERROR`, as the hosted API has it for this path.
         */
        post: operations["importDashboard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Replace a dashboard document in place
         * @description The import body with the `dashboardId` to replace. The document is checked against the model of the workspace (its datasource or datamart), then every metric, SQL metrics included, is compiled and run on the warehouse with no rows returned. The dashboard keeps its row: its embeds and the guest tokens that load them keep working, and its cached results are dropped on every instance. Takes the service token.
         */
        put: operations["updateDashboard"];
        post?: never;
        /**
         * Delete a dashboard no embed uses
         * @description Deletes the dashboard; refused, naming them, while embeds use it. Takes the service token.
         */
        delete: operations["deleteDashboard"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/validate-dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a dashboard document without saving it
         * @description The import body (a hosted-service export read as on import, with `data.warnings`). The document is checked against the model of the workspace (its datasource or datamart), then every metric, SQL metrics included, is compiled and run on the warehouse with no rows returned. Each metric answers `valid`, or the compiler's or the warehouse's reason; nothing is saved. Takes the service token.
         */
        post: operations["validateDashboard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/embeds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the embeds of the data app
         * @description Every embed of this data app with its dashboard or metric; with `clientId`, only the dashboard embeds whose dashboard that client created. Pages of 10 when paginating. Takes the data app API key.
         */
        get: operations["listEmbeds"];
        /**
         * Change the access settings of an embed (effective at once)
         * @description Merges a partial `accessSettings` into the embed's; live guest tokens see the change on their next request, on every instance. Takes the data app API key. A bad key answers 401 `AUTHENTICATION_ERR`, as the hosted API spells it for this path.
         */
        put: operations["updateEmbed"];
        /**
         * Create an embed of a dashboard or of one metric
         * @description Embeds an existing dashboard (`embedType: dashboard`) or one of its metrics (`metric`, with `metricId`) for this data app. `accessSettings` say what end users may do: required for a dashboard embed, with `datamartName` and every permission flag (`isAllowEmailReports`, `isAllowManageMetrics`, `isAllowCreateDashboardView`, `isAllowMetricCreation`, `isAllowMetricDeletion`, `isAllowMetricLayoutChange`, `isAllowMetricUpdate`, `isAllowUnderlyingData`, `metricCreationMode`). Takes the data app API key. The legacy delete shares this path: with `?embedId=…` or a body `{ embedId }` it deletes that embed (use `DELETE /api/v2/data-app/embeds`).
         */
        post: operations["createEmbed"];
        /**
         * Delete an embed (and, optionally, its dashboard)
         * @description Deletes the embed; its guest tokens stop loading it at once. With `isDeleteDashboard=true` its dashboard goes too, when the API created it and no other embed uses it. Takes the data app API key.
         */
        delete: operations["deleteEmbed"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/embeds/rename": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Rename an embed (and, optionally, its dashboard)
         * @description Sets the embed's name; with `isRenameDashboard: true` its dashboard gets the name too. Takes the data app API key.
         */
        put: operations["renameEmbed"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/embeds/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export an embed with its dashboard document
         * @description Answers the embed's dashboard document and access settings as a JSON attachment `dashboard-{embedId}.json`; its `data` can be given as `importDashboardData` to create a dashboard embed elsewhere. Takes the data app API key.
         */
        get: operations["exportEmbed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/dashboard-embeds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a dashboard (empty, from a template or imported) and its embed in one call
         * @description Creates the dashboard `dashboardId` in the workspace, recorded as created by `clientId`, and embeds it with `accessSettings` (required fields as for a dashboard embed). The dashboard is empty, a copy of the filters, layout and metrics of `templateDashboardId` (a dashboard of the workspace; metrics made for one client are not copied), or `importDashboardData` (a dashboard document or the hosted service's export, checked as on import; the template fills the filters, layout and metrics it lacks). `isImportMetrics: false` leaves the metrics (and the layout) out; `isAllowPrivateMetricsByDefault` sets the document's flag; `metadata` is kept with the dashboard and `embedDescription` with the embed, both shown by the embeds list; `metricImportMode` takes only `GALLERY`. Takes the data app API key.
         */
        post: operations["createDashboardEmbed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/dashboards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the dashboards of the data app
         * @description The dashboards this data app embeds (name, dashboardId, embedId); pages of 10 when paginating. Takes the data app API key. `dashboardNames` (comma-separated) keeps only those names.
         */
        get: operations["listDashboards"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the metrics of an embed that a client sees
         * @description The metrics of the embed's dashboard visible to `clientId`: the shared ones and those the client created (private ones only to their `userIdentifier`). Takes the data app API key (a bad one: 400 `INVALID_DATA_APP_API_KEY`).
         */
        get: operations["listMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/metrics/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Publish or unpublish an end user's metric
         * @description Sets whether a metric end users made in the embed (`u_…`, whatever their tenant) is published: `isPublished: true` shows it to every user of its tenant (a private one becomes shared), `false` hides it from all but its creator; it is kept, and the metrics list shows it with `isPublished: false`. The metrics of the dashboard itself are always published: `true` changes nothing, `false` is refused. Takes the data app API key.
         */
        put: operations["setMetricPublished"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/guest-token/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a guest token for one end user
         * @description Called by your backend for each end user: returns an opaque token (claims stay server-side) that the web component sends to the embed runtime. `clientId` selects the tenant (row-level security, tenancy); `params` carry RLS values, filters fixed by the app, `allowedEmbeds`, the time zone; `permissions` narrow what the embed allows (a flag left out inherits the embed’s setting; download is off unless `isEnableDownloadMetrics` is `true`; the rule per capability: docs/guest-tokens.md). Every id is checked against this data app. The body is strict: an undeclared field is a 400. Takes the data app API key (a bad one: 401 `AUTHENTICATION_ERROR`, as the hosted API has it).
         */
        post: operations["createGuestToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/guest-token/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a guest token naming a workspace (v1)
         * @description The first form of the guest token, kept for backends written against it: `workspaceName` in place of `dataAppName`, the rest as the v2 body (as strict), plus `params.dashboard: { id }`. The token is the key’s data app’s, and loads only embeds of the dashboards of that workspace (another: 403 `UNAUTHORIZED`); `params.dashboard.id` narrows it to that one dashboard (as `allowedEmbeds` would). Takes the data app API key (a bad one: 401 `AUTHENTICATION_ERROR`).
         */
        post: operations["createGuestTokenV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Query a metric of an embed for one client
         * @description For backends: runs a metric of the embed's dashboard with the tenancy of `clientId` (table tenancy, or its database) and the given dashboard and metric filters, and answers its rows (pages of 100 with `pageNumber`). `datasourceName` / `dataMartName` pick the source in a MULTI_ workspace. Results are cached per tenant. When rows were cut at QUERY_ROW_LIMIT the answer carries `Strata-Truncated: true`. Takes the data app API key.
         */
        post: operations["queryMetric"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the data app's email reports
         * @description Every scheduled email report end users of this data app made, oldest first, optionally of one embed (`embedId`) or one tenant (`clientId`): schedule, recipients, next run and status. The claims a report runs with are never part of it. Takes the data app API key.
         */
        get: operations["listDataAppReports"];
        put?: never;
        post?: never;
        /**
         * Delete an email report
         * @description Deletes one report of this data app, whichever tenant made it (`?reportId=`, as the data app's other DELETE routes take their target); it is never sent again. Takes the data app API key.
         */
        delete: operations["deleteDataAppReport"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/rollups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List rollups and their state
         * @description Every rollup the organization's dashboards declare (docs/rollups.md), or with `workspaceName` and `dashboardId` only that dashboard's (none when it does not exist), by workspace, dashboard and name: its state (building, ready, failed, stale), rows and bytes of its files, when it was last refreshed and is next due, how old its data is (`lagSeconds`) and the last build's error. Takes the service token.
         */
        get: operations["listRollups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/data-app/rollups/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refresh rollups now
         * @description Makes the rollups of one dashboard (or the one `rollup` names) due now and answers 202 with their state; an instance builds them in the background, once across instances. A build never blocks a query. A rollup waiting for a change (`nextRefreshAt` null: over ROLLUP_MAX_COUNT, or a definition the model no longer fits) is not made due and is answered as it is. Takes the service token.
         */
        post: operations["refreshRollups"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Every failure: `{ error: { code, message } }` */
        ErrorResponse: {
            error: {
                /** @enum {string} */
                code: "INVALID_REQUEST_BODY" | "AUTHENTICATION_ERROR" | "AUTHENTICATION_ERR" | "AUTH_ERROR" | "INVALID_DATA_APP_API_KEY" | "UNAUTHORIZED" | "INVALID_WORKSPACE_NAME" | "WORKSPACE_ID_ERROR" | "INVALID_DASHBOARD_ID" | "TEMPLATE_DASHBOARD_ERROR" | "INVALID_METRIC_ID" | "EMBED_NOT_FOUND" | "INVALID_EMBED_ID" | "EMBED_PARAM_ERROR" | "INVALID_DATAMART" | "INSUFFICIENT_PERMISSIONS" | "INVALID_ACCESS_SETTINGS" | "CONFLICTING_UPDATE" | "RATE_LIMIT_EXCEEDED" | "DATA_APP_NOT_FOUND" | "DATASOURCE_NAME_ERROR" | "DATAMART_NAME_ERROR" | "DATASOURCE_ID_ERROR" | "WORKSPACE_DOES_NOT_EXIST" | "INVALID_DATASOURCE_NAME" | "INVALID_DATAMART_NAME" | "RESET_PASSWORD_ERROR" | "SELFHOSTED_APP_ERROR" | "INTERNAL_SERVER_ERROR" | "APP_FILTER_PARAM_ERROR" | "RLS_SETTINGS_PARAM_ERROR" | "CLIENT_ID_ERROR" | "DASHBOARD_PARAM_ERROR" | "INVALID_REQUEST" | "USER_NOT_FOUND" | "INVALID_CREDENTIALS" | "DATA_APP_ALREADY_EXISTS" | "NOT_FOUND" | "UNSUPPORTED_MEDIA_TYPE" | "PAYLOAD_TOO_LARGE" | "SERVICE_UNAVAILABLE" | "EMAIL_NOT_CONFIGURED" | "EMAIL_SEND_FAILED" | "DATASOURCE_CONNECTION_ERROR" | "DATASOURCE_NOT_SUPPORTED" | "QUERY_TIMEOUT" | "QUERY_ERROR" | "AI_NOT_CONFIGURED" | "AI_PROVIDER_ERROR";
                message: string;
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        DashboardDocument: {
            name: string;
            description?: string;
            filters?: {
                name: string;
                label?: string;
                type: "multi-select" | "single-select" | "date-range" | "number-range" | "boolean" | "text";
                /** @description `schema.table`, or `table` when unambiguous */
                table: string;
                column: string;
                default?: unknown;
            }[];
            layout?: {
                metricId: string;
                x: number;
                y: number;
                w: number;
                h: number;
            }[];
            metrics: {
                metricId: string;
                name: string;
                description?: string;
                /** @description Presentation options beyond type/x/y pass through untouched */
                chart: {
                    type: "line" | "bar" | "stacked-bar" | "area" | "pie" | "doughnut" | "table" | "single-value" | "combo" | "scatter" | "funnel" | "pivot" | "trend";
                    x?: string;
                    y?: string[];
                } & {
                    [key: string]: unknown;
                };
                formats?: {
                    [key: string]: {
                        style: "number" | "currency" | "percent" | "id" | "text";
                        /** @description ISO 4217 code (USD, EUR, …); only with style currency */
                        currency?: string;
                        decimals?: number;
                        /** @description 1.2K, 3.4M */
                        compact?: boolean;
                    };
                };
                query?: {
                    /** @description `schema.table`, or `table` when unambiguous */
                    from: string;
                    measures?: {
                        name: string;
                        aggregate: "sum" | "count" | "count-distinct" | "avg" | "min" | "max";
                        column?: string;
                        /** @description `schema.table`, or `table` when unambiguous */
                        table?: string;
                    }[];
                    dimensions?: {
                        name: string;
                        column: string;
                        /** @description `schema.table`, or `table` when unambiguous */
                        table?: string;
                        timeGrain?: "hour" | "day" | "week" | "month" | "quarter" | "year";
                    }[];
                    where?: {
                        column: string;
                        /** @description `schema.table`, or `table` when unambiguous */
                        table?: string;
                        operator: "eq" | "neq" | "gt" | "gte" | "lt" | "lte" | "in" | "not-in" | "between" | "is-null" | "is-not-null" | "contains";
                        values?: (string | number | boolean | null)[];
                    }[];
                    orderBy?: {
                        name: string;
                        direction: "asc" | "desc";
                    }[];
                    limit?: number;
                };
                sql?: string;
                filters?: {
                    name: string;
                    label?: string;
                    type: "multi-select" | "single-select" | "date-range" | "number-range" | "boolean" | "text";
                    column: string;
                    /** @description `schema.table`, or `table` when unambiguous */
                    table?: string;
                }[];
                /** @description SQL metrics: the dashboard filters (by name) the metric takes; each applies to the table it names wherever the SQL reads that table */
                dashboardFilters?: string[];
                rls?: {
                    variable: string;
                    column: string;
                    /** @description `schema.table`, or `table` when unambiguous */
                    table?: string;
                }[];
                comparison?: {
                    period: "previous-period" | "previous-year";
                };
                isPublished?: boolean;
                createdByUser?: string | null;
                createdByClient?: string | null;
                visibility?: "shared" | "private";
            }[];
            isAllowPrivateMetricsByDefault?: boolean;
            rollups?: "auto" | {
                name: string;
                from: string;
                time?: {
                    column: string;
                    grain: "hour" | "day" | "week" | "month" | "quarter" | "year";
                };
                dimensions: string[];
                measures: {
                    name: string;
                    aggregate: "sum" | "count" | "min" | "max" | "avg" | "count-distinct" | "count_distinct";
                    column?: string;
                }[];
                refresh?: {
                    every: string;
                    incremental?: string;
                };
            }[];
        };
        /**
         * Snowflake credentials
         * @description The credentials of a `snowflake` datasource. Unknown fields are refused; a field set to null counts as absent. `password` is required (non-empty) when `service` is `username/password`. `privateKey` is required when `service` is `Key-pair authentication`; `privateKeyPass` only when the key is encrypted. The field of the other method is accepted and ignored.
         */
        SnowflakeCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Host
             * @description Account host, e.g. xy12345.eu-west-1.snowflakecomputing.com.
             */
            host: string;
            /**
             * Username
             * @description Snowflake user.
             */
            username: string;
            /**
             * Role
             * @description Role the session uses.
             */
            role: string;
            /**
             * Warehouse
             * @description Virtual warehouse that runs the queries.
             */
            warehouse: string;
            /**
             * Database
             * @description Database to connect to.
             */
            database: string;
            /**
             * Schema
             * @description Default schema.
             */
            schema: string;
            /**
             * Authentication
             * @description How the user authenticates.
             * @enum {unknown}
             */
            service: "username/password" | "Key-pair authentication";
            /**
             * Password
             * Format: password
             * @description Password of the user. Required when service is username/password.
             */
            password?: string;
            /**
             * Private key
             * Format: password
             * @description PEM private key. Required when service is Key-pair authentication.
             */
            privateKey?: string;
            /**
             * Private key passphrase
             * Format: password
             * @description Passphrase of an encrypted private key.
             */
            privateKeyPass?: string;
        };
        /**
         * PostgreSQL credentials
         * @description The credentials of a `postgres` datasource. Unknown fields are refused; a field set to null counts as absent. `sshHost`, `sshPort`, `sshUsername` and `sshPrivateKey` are required when `sshTunnel` is `enable`. `tlsCaCertificate` and `tlsClientCertificate` must be PEM certificates and `tlsClientKey` an unencrypted PEM private key; a client certificate needs its key and the reverse.
         */
        PostgreSQLCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Host
             * @description Hostname or IP address of the PostgreSQL server.
             */
            host: string;
            /**
             * Port
             * @description TCP port of the PostgreSQL server (usually 5432).
             */
            port: number;
            /**
             * Username
             * @description Database user.
             */
            username: string;
            /**
             * Password
             * Format: password
             * @description Password of the database user.
             */
            password: string;
            /**
             * Database
             * @description Database to connect to.
             */
            database: string;
            /**
             * Schema
             * @description Default schema for introspection and queries.
             */
            schema: string;
            /**
             * SSL
             * @description Connect over TLS: true is tlsMode verify (unless tlsMode says otherwise), false is tlsMode off.
             */
            sslMode?: boolean;
            /**
             * TLS mode
             * @description off: plain TCP; required: encrypted, the certificate is not checked; verify: encrypted, the certificate must chain to a trusted CA and name the host. Default: off when sslMode is false; otherwise verify, except off for a loopback host (localhost, 127.0.0.0/8, ::1) and for a datasource saved before TLS was verified by default.
             * @enum {unknown}
             */
            tlsMode?: "off" | "required" | "verify";
            /**
             * TLS CA certificate
             * @description PEM certificate(s) of the CA that signs the server's certificate (a private CA); without it, the public roots.
             */
            tlsCaCertificate?: string;
            /**
             * TLS client certificate
             * @description PEM client certificate, for servers that authenticate clients by certificate.
             */
            tlsClientCertificate?: string;
            /**
             * TLS client key
             * Format: password
             * @description PEM private key (unencrypted) of tlsClientCertificate.
             */
            tlsClientKey?: string;
            /**
             * SSH tunnel
             * @description Connect through an SSH bastion host.
             * @enum {unknown}
             */
            sshTunnel?: "enable" | "disable";
            /**
             * SSH host
             * @description Bastion host. Required when sshTunnel is enable.
             */
            sshHost?: string;
            /**
             * SSH port
             * @description Bastion SSH port (usually 22). Required when sshTunnel is enable.
             */
            sshPort?: number;
            /**
             * SSH username
             * @description User on the bastion host. Required when sshTunnel is enable.
             */
            sshUsername?: string;
            /**
             * SSH private key
             * Format: password
             * @description PEM private key for the bastion. Required when sshTunnel is enable.
             */
            sshPrivateKey?: string;
        };
        /**
         * Redshift credentials
         * @description The credentials of a `redshift` datasource. Unknown fields are refused; a field set to null counts as absent. `sshHost`, `sshPort`, `sshUsername` and `sshPrivateKey` are required when `sshTunnel` is `enable`. `tlsCaCertificate` and `tlsClientCertificate` must be PEM certificates and `tlsClientKey` an unencrypted PEM private key; a client certificate needs its key and the reverse.
         */
        RedshiftCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Host
             * @description Hostname or IP address of the Redshift server.
             */
            host: string;
            /**
             * Port
             * @description TCP port of the Redshift server (usually 5439).
             */
            port: number;
            /**
             * Username
             * @description Database user.
             */
            username: string;
            /**
             * Password
             * Format: password
             * @description Password of the database user.
             */
            password: string;
            /**
             * Database
             * @description Database to connect to.
             */
            database: string;
            /**
             * Schema
             * @description Default schema for introspection and queries.
             */
            schema: string;
            /**
             * SSL
             * @description Connect over TLS: true is tlsMode verify (unless tlsMode says otherwise), false is tlsMode off.
             */
            sslMode?: boolean;
            /**
             * TLS mode
             * @description off: plain TCP; required: encrypted, the certificate is not checked; verify: encrypted, the certificate must chain to a trusted CA and name the host. Default: off when sslMode is false; otherwise verify, except off for a loopback host (localhost, 127.0.0.0/8, ::1) and for a datasource saved before TLS was verified by default.
             * @enum {unknown}
             */
            tlsMode?: "off" | "required" | "verify";
            /**
             * TLS CA certificate
             * @description PEM certificate(s) of the CA that signs the server's certificate (a private CA); without it, the public roots.
             */
            tlsCaCertificate?: string;
            /**
             * TLS client certificate
             * @description PEM client certificate, for servers that authenticate clients by certificate.
             */
            tlsClientCertificate?: string;
            /**
             * TLS client key
             * Format: password
             * @description PEM private key (unencrypted) of tlsClientCertificate.
             */
            tlsClientKey?: string;
            /**
             * SSH tunnel
             * @description Connect through an SSH bastion host.
             * @enum {unknown}
             */
            sshTunnel?: "enable" | "disable";
            /**
             * SSH host
             * @description Bastion host. Required when sshTunnel is enable.
             */
            sshHost?: string;
            /**
             * SSH port
             * @description Bastion SSH port (usually 22). Required when sshTunnel is enable.
             */
            sshPort?: number;
            /**
             * SSH username
             * @description User on the bastion host. Required when sshTunnel is enable.
             */
            sshUsername?: string;
            /**
             * SSH private key
             * Format: password
             * @description PEM private key for the bastion. Required when sshTunnel is enable.
             */
            sshPrivateKey?: string;
        };
        /**
         * CockroachDB credentials
         * @description The credentials of a `cockroachdb` datasource. Unknown fields are refused; a field set to null counts as absent. `sshHost`, `sshPort`, `sshUsername` and `sshPrivateKey` are required when `sshTunnel` is `enable`. `tlsCaCertificate` and `tlsClientCertificate` must be PEM certificates and `tlsClientKey` an unencrypted PEM private key; a client certificate needs its key and the reverse.
         */
        CockroachDBCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Host
             * @description Hostname or IP address of the CockroachDB server.
             */
            host: string;
            /**
             * Port
             * @description TCP port of the CockroachDB server (usually 26257).
             */
            port: number;
            /**
             * Username
             * @description Database user.
             */
            username: string;
            /**
             * Password
             * Format: password
             * @description Password of the database user.
             */
            password: string;
            /**
             * Database
             * @description Database to connect to.
             */
            database: string;
            /**
             * Schema
             * @description Default schema for introspection and queries.
             */
            schema: string;
            /**
             * SSL
             * @description Connect over TLS: true is tlsMode verify (unless tlsMode says otherwise), false is tlsMode off.
             */
            sslMode?: boolean;
            /**
             * TLS mode
             * @description off: plain TCP; required: encrypted, the certificate is not checked; verify: encrypted, the certificate must chain to a trusted CA and name the host. Default: off when sslMode is false; otherwise verify, except off for a loopback host (localhost, 127.0.0.0/8, ::1) and for a datasource saved before TLS was verified by default.
             * @enum {unknown}
             */
            tlsMode?: "off" | "required" | "verify";
            /**
             * TLS CA certificate
             * @description PEM certificate(s) of the CA that signs the server's certificate (a private CA); without it, the public roots.
             */
            tlsCaCertificate?: string;
            /**
             * TLS client certificate
             * @description PEM client certificate, for servers that authenticate clients by certificate.
             */
            tlsClientCertificate?: string;
            /**
             * TLS client key
             * Format: password
             * @description PEM private key (unencrypted) of tlsClientCertificate.
             */
            tlsClientKey?: string;
            /**
             * SSH tunnel
             * @description Connect through an SSH bastion host.
             * @enum {unknown}
             */
            sshTunnel?: "enable" | "disable";
            /**
             * SSH host
             * @description Bastion host. Required when sshTunnel is enable.
             */
            sshHost?: string;
            /**
             * SSH port
             * @description Bastion SSH port (usually 22). Required when sshTunnel is enable.
             */
            sshPort?: number;
            /**
             * SSH username
             * @description User on the bastion host. Required when sshTunnel is enable.
             */
            sshUsername?: string;
            /**
             * SSH private key
             * Format: password
             * @description PEM private key for the bastion. Required when sshTunnel is enable.
             */
            sshPrivateKey?: string;
        };
        /**
         * MySQL credentials
         * @description The credentials of a `mysql` datasource. Unknown fields are refused; a field set to null counts as absent. `tlsCaCertificate` and `tlsClientCertificate` must be PEM certificates and `tlsClientKey` an unencrypted PEM private key; a client certificate needs its key and the reverse.
         */
        MySQLCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Host
             * @description Hostname or IP address of the MySQL server.
             */
            host: string;
            /**
             * Port
             * @description TCP port of the MySQL server.
             */
            port: number;
            /**
             * User
             * @description Database user.
             */
            user: string;
            /**
             * Password
             * Format: password
             * @description Password of the database user.
             */
            password: string;
            /**
             * Database
             * @description Default database (else every database the user can reach).
             */
            database?: string;
            /**
             * TLS mode
             * @description off: plain TCP; required: encrypted, the certificate is not checked; verify: encrypted, the certificate must chain to a trusted CA and name the host. Default: verify, except off for a loopback host (localhost, 127.0.0.0/8, ::1) and for a datasource saved before TLS was verified by default.
             * @enum {unknown}
             */
            tlsMode?: "off" | "required" | "verify";
            /**
             * TLS CA certificate
             * @description PEM certificate(s) of the CA that signs the server's certificate (a private CA); without it, the public roots.
             */
            tlsCaCertificate?: string;
            /**
             * TLS client certificate
             * @description PEM client certificate, for servers that authenticate clients by certificate.
             */
            tlsClientCertificate?: string;
            /**
             * TLS client key
             * Format: password
             * @description PEM private key (unencrypted) of tlsClientCertificate.
             */
            tlsClientKey?: string;
        };
        /**
         * MongoDB credentials
         * @description The credentials of a `mongodb` datasource. Unknown fields are refused; a field set to null counts as absent. Either `connectionString`, or `host`, `port` and `user`: `host` and `port` are refused beside a connection string. `connectionString` must be a `mongodb://` or `mongodb+srv://` URI the MongoDB driver parses (its options included). A connection string naming a file of the server (`tlsCAFile`, `tlsCertificateKeyFile`, `tlsCRLFile`) or an `authMechanism` other than SCRAM or PLAIN (`MONGODB-AWS`, `MONGODB-OIDC`, `GSSAPI`, `MONGODB-X509` would use what the server holds) is refused. `user`, `password` and `authSource`, given beside a connection string, take precedence over the ones in it. `tlsCaCertificate`, when given, must hold PEM certificates.
         */
        MongoDBCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Host
             * @description Hostname or IP address of the MongoDB server. Required unless connectionString is given.
             */
            host?: string;
            /**
             * Port
             * @description TCP port of the MongoDB server. Required unless connectionString is given.
             */
            port?: number;
            /**
             * User
             * @description Database user. Required unless connectionString is given.
             */
            user?: string;
            /**
             * Password
             * Format: password
             * @description Password of the database user.
             */
            password?: string;
            /**
             * Authentication database
             * @description Database the user was created in (default `admin`, or the connection string's).
             */
            authSource?: string;
            /**
             * Connection string
             * Format: password
             * @description A mongodb:// or mongodb+srv:// URI with its options (tls, authSource, replicaSet …), as MongoDB Atlas shows it; read by the driver.
             */
            connectionString?: string;
            /**
             * TLS CA certificate
             * @description PEM certificate(s) of the CA that signs the server's certificate (a private CA); without it, the public roots.
             */
            tlsCaCertificate?: string;
        };
        /**
         * ClickHouse credentials
         * @description The credentials of a `clickhouse` datasource. Unknown fields are refused; a field set to null counts as absent. `tlsCaCertificate`, when given, must hold PEM certificates.
         */
        ClickHouseCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Host
             * @description Hostname or IP address of the ClickHouse server.
             */
            host: string;
            /**
             * Port
             * @description TCP port of the ClickHouse server.
             */
            port: number;
            /**
             * User
             * @description Database user.
             */
            user: string;
            /**
             * Password
             * Format: password
             * @description Password of the database user.
             */
            password: string;
            /**
             * Database
             * @description Default database (else `default`).
             */
            database?: string;
            /**
             * SSL
             * @description Use https instead of http (the certificate is verified).
             */
            ssl?: boolean;
            /**
             * TLS CA certificate
             * @description PEM certificate(s) of the CA that signs the server's certificate (a private CA); without it, the public roots.
             */
            tlsCaCertificate?: string;
        };
        /**
         * SingleStore credentials
         * @description The credentials of a `singlestore` datasource. Unknown fields are refused; a field set to null counts as absent. `tlsCaCertificate` and `tlsClientCertificate` must be PEM certificates and `tlsClientKey` an unencrypted PEM private key; a client certificate needs its key and the reverse.
         */
        SingleStoreCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Host
             * @description Hostname or IP address of the SingleStore server.
             */
            host: string;
            /**
             * Port
             * @description TCP port of the SingleStore server.
             */
            port: number;
            /**
             * User
             * @description Database user.
             */
            user: string;
            /**
             * Password
             * Format: password
             * @description Password of the database user.
             */
            password: string;
            /**
             * Database
             * @description Database to connect to.
             */
            database: string;
            /**
             * TLS mode
             * @description off: plain TCP; required: encrypted, the certificate is not checked; verify: encrypted, the certificate must chain to a trusted CA and name the host. Default: verify, except off for a loopback host (localhost, 127.0.0.0/8, ::1) and for a datasource saved before TLS was verified by default.
             * @enum {unknown}
             */
            tlsMode?: "off" | "required" | "verify";
            /**
             * TLS CA certificate
             * @description PEM certificate(s) of the CA that signs the server's certificate (a private CA); without it, the public roots.
             */
            tlsCaCertificate?: string;
            /**
             * TLS client certificate
             * @description PEM client certificate, for servers that authenticate clients by certificate.
             */
            tlsClientCertificate?: string;
            /**
             * TLS client key
             * Format: password
             * @description PEM private key (unencrypted) of tlsClientCertificate.
             */
            tlsClientKey?: string;
        };
        /**
         * BigQuery credentials
         * @description The credentials of a `bigquery` datasource. Unknown fields are refused; a field set to null counts as absent. `credentials_json` must be a JSON object (the content of the service account key file). `apiEndpoint`, when given, must be an http:// or https:// URL.
         */
        BigQueryCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Service account key
             * Format: password
             * @description The service account key file (a JSON object) as a string.
             */
            credentials_json: string;
            /**
             * Project ID
             * @description Google Cloud project that runs the queries.
             */
            project_id: string;
            /**
             * Dataset location
             * @description Location of the datasets, e.g. US or europe-west1.
             */
            dataset_location: string;
            /**
             * Dataset ID
             * @description Limit introspection to this dataset.
             */
            dataset_id?: string;
            /**
             * API endpoint
             * @description An http(s):// URL replacing https://bigquery.googleapis.com (private link, proxy).
             */
            apiEndpoint?: string;
        };
        /**
         * Databricks credentials
         * @description The credentials of a `databricks` datasource. Unknown fields are refused; a field set to null counts as absent.
         */
        DatabricksCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Server hostname
             * @description Workspace hostname, e.g. dbc-1234.cloud.databricks.com; also host:port or an http(s):// URL (endpoint override).
             */
            serverHostname: string;
            /**
             * HTTP path
             * @description HTTP path of the SQL warehouse: /sql/1.0/warehouses/<id> (clusters are not served).
             */
            httpPath: string;
            /**
             * Access token
             * Format: password
             * @description Personal access token.
             */
            token: string;
        };
        /**
         * Elasticsearch credentials
         * @description The credentials of a `elasticsearch` datasource. Unknown fields are refused; a field set to null counts as absent. `cloud_id` is required when `server_type` is `elastic-cloud` or `open-cloud`. `server_url` is required when `server_type` is `self-managed`, and must be an http:// or https:// URL. `disableAuth: true` is only valid when `server_type` is `self-managed` (`false`, the default, is accepted for every server_type). `username` and `password` are required unless `disableAuth` is `true`. A field that does not apply to the server_type (`server_url` on a cloud kind, `cloud_id` on self-managed) is accepted and ignored. `tlsCaCertificate`, when given, must hold PEM certificates.
         */
        ElasticsearchCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Server type
             * @description Where the cluster runs.
             * @enum {unknown}
             */
            server_type: "elastic-cloud" | "open-cloud" | "self-managed";
            /**
             * Cloud ID
             * @description Cloud deployment ID. Required when server_type is elastic-cloud or open-cloud.
             */
            cloud_id?: string;
            /**
             * Server URL
             * @description Cluster URL, e.g. https://search.internal:9200. Required for self-managed.
             */
            server_url?: string;
            /**
             * Username
             * @description Cluster user. Required unless disableAuth is true.
             */
            username?: string;
            /**
             * Password
             * Format: password
             * @description Password of the cluster user. Required unless disableAuth is true.
             */
            password?: string;
            /**
             * Disable authentication
             * @description Connect without credentials (default false). true only for self-managed.
             * @default false
             */
            disableAuth: boolean;
            /**
             * Skip certificate verification
             * @description Accept a certificate that fails verification (default false: verified).
             */
            isIgnoreVerifyCert?: boolean;
            /**
             * Ignore SSL
             * @description Connect without TLS.
             */
            isIgnoreSsl?: boolean;
            /**
             * TLS CA certificate
             * @description PEM certificate(s) of the CA that signs the server's certificate (a private CA); without it, the public roots.
             */
            tlsCaCertificate?: string;
        };
        /**
         * OpenSearch credentials
         * @description The credentials of a `opensearch` datasource. Unknown fields are refused; a field set to null counts as absent. `cloud_id` is required when `server_type` is `elastic-cloud` or `open-cloud`. `server_url` is required when `server_type` is `self-managed`, and must be an http:// or https:// URL. `disableAuth: true` is only valid when `server_type` is `self-managed` (`false`, the default, is accepted for every server_type). `username` and `password` are required unless `disableAuth` is `true`. A field that does not apply to the server_type (`server_url` on a cloud kind, `cloud_id` on self-managed) is accepted and ignored. `tlsCaCertificate`, when given, must hold PEM certificates. AWS IAM (SigV4): with `awsRegion`, requests are signed with `awsAccessKeyId` and `awsSecretAccessKey` (both required; `awsSessionToken` for temporary credentials) for the service `awsService` (`es`, the default, or `aoss`); `server_type` must be `self-managed` (`server_url` is the domain or collection endpoint), and `username`, `password` and `disableAuth` are refused. An `aws…` field without `awsRegion` is refused.
         */
        OpenSearchCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Server type
             * @description Where the cluster runs.
             * @enum {unknown}
             */
            server_type: "elastic-cloud" | "open-cloud" | "self-managed";
            /**
             * Cloud ID
             * @description Cloud deployment ID. Required when server_type is elastic-cloud or open-cloud.
             */
            cloud_id?: string;
            /**
             * Server URL
             * @description Cluster URL, e.g. https://search.internal:9200. Required for self-managed.
             */
            server_url?: string;
            /**
             * Username
             * @description Cluster user. Required unless disableAuth is true.
             */
            username?: string;
            /**
             * Password
             * Format: password
             * @description Password of the cluster user. Required unless disableAuth is true.
             */
            password?: string;
            /**
             * Disable authentication
             * @description Connect without credentials (default false). true only for self-managed.
             * @default false
             */
            disableAuth: boolean;
            /**
             * Skip certificate verification
             * @description Accept a certificate that fails verification (default false: verified).
             */
            isIgnoreVerifyCert?: boolean;
            /**
             * Ignore SSL
             * @description Connect without TLS.
             */
            isIgnoreSsl?: boolean;
            /**
             * TLS CA certificate
             * @description PEM certificate(s) of the CA that signs the server's certificate (a private CA); without it, the public roots.
             */
            tlsCaCertificate?: string;
            /**
             * AWS region
             * @description Region of the domain or collection, e.g. eu-west-1. Set it to sign requests with AWS IAM (SigV4).
             */
            awsRegion?: string;
            /**
             * AWS service
             * @description `es` for an OpenSearch Service domain (default), `aoss` for OpenSearch Serverless.
             * @enum {unknown}
             */
            awsService?: "es" | "aoss";
            /**
             * AWS access key ID
             * @description Access key ID of the IAM user or role. Required with awsRegion.
             */
            awsAccessKeyId?: string;
            /**
             * AWS secret access key
             * Format: password
             * @description Secret access key. Required with awsRegion.
             */
            awsSecretAccessKey?: string;
            /**
             * AWS session token
             * Format: password
             * @description Session token of temporary credentials.
             */
            awsSessionToken?: string;
        };
        /**
         * SQL Server credentials
         * @description The credentials of a `mssql` datasource. Unknown fields are refused; a field set to null counts as absent. `tlsCaCertificate` and `tlsClientCertificate` must be PEM certificates and `tlsClientKey` an unencrypted PEM private key; a client certificate needs its key and the reverse.
         */
        SQLServerCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Server
             * @description Hostname or IP address of the SQL Server.
             */
            server: string;
            /**
             * Port
             * @description TCP port of the SQL Server (usually 1433).
             */
            port: number;
            /**
             * User
             * @description SQL login.
             */
            user: string;
            /**
             * Password
             * Format: password
             * @description Password of the SQL login.
             */
            password: string;
            /**
             * Database
             * @description Database to connect to (else the login default).
             */
            database?: string;
            /**
             * Disable database
             * @description Ignore `database`: use the login default database.
             */
            isDisableDatabase?: boolean;
            /**
             * Read-only intent
             * @description Connect with ApplicationIntent=ReadOnly (read replicas).
             */
            readOnlyIntent?: boolean;
            /**
             * TLS mode
             * @description off: plain TCP; required: encrypted, the certificate is not checked; verify: encrypted, the certificate must chain to a trusted CA and name the host. Default: verify.
             * @enum {unknown}
             */
            tlsMode?: "off" | "required" | "verify";
            /**
             * TLS CA certificate
             * @description PEM certificate(s) of the CA that signs the server's certificate (a private CA); without it, the public roots.
             */
            tlsCaCertificate?: string;
            /**
             * TLS client certificate
             * @description PEM client certificate, for servers that authenticate clients by certificate.
             */
            tlsClientCertificate?: string;
            /**
             * TLS client key
             * Format: password
             * @description PEM private key (unencrypted) of tlsClientCertificate.
             */
            tlsClientKey?: string;
        };
        /**
         * Amazon S3 credentials
         * @description The credentials of a `awss3` datasource. Unknown fields are refused; a field set to null counts as absent. `endpoint`, when given, must be an http:// or https:// URL, or file:///dir for a local mirror. A file:/// endpoint must be `FILES_ROOT` or a directory under it, and `bucket` and `prefix` must stay under it: one that resolves elsewhere (`..`, a link) is 400 `INVALID_REQUEST_BODY`, checked by real path whenever the files are opened. `prefix`, when given, must not contain `..`, hidden segments, backslashes, `%`, glob characters or control characters.
         */
        AmazonS3Credentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Bucket
             * @description S3 bucket holding the files.
             */
            bucket: string;
            /**
             * Region
             * @description AWS region of the bucket, e.g. eu-west-1.
             */
            region: string;
            /**
             * Access key ID
             * @description AWS access key ID.
             */
            accessKeyId: string;
            /**
             * Secret access key
             * Format: password
             * @description AWS secret access key.
             */
            secretAccessKey: string;
            /**
             * Prefix
             * @description Only read objects under this key prefix.
             */
            prefix?: string;
            /**
             * Endpoint
             * @description An http(s):// URL (S3-compatible service) or file:///dir (a local mirror under FILES_ROOT).
             */
            endpoint?: string;
        };
        /**
         * CSV credentials
         * @description The credentials of a `csv` datasource. Unknown fields are refused; a field set to null counts as absent. `path` is relative to `FILES_ROOT` (where `PUT /api/v2/datasource/files/:datasourceName/:fileName` stores files): the folder `datasourceName`, or one file in it. An absolute `path`, one with `..` or hidden segments, backslashes, `%`, glob or control characters, or one that resolves outside `FILES_ROOT` through a link is 400 `INVALID_REQUEST_BODY`; links are resolved whenever the files are opened, not only on create.
         */
        CSVCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Path
             * @description Relative to FILES_ROOT: a directory (each .csv, .parquet or .json file in it is a table) or one file.
             */
            path: string;
            /**
             * Delimiter
             * @description CSV delimiter, 1-4 characters (default: detected).
             */
            delimiter?: string;
        };
        /**
         * Firebolt credentials
         * @description The credentials of a `firebolt` datasource. Unknown fields are refused; a field set to null counts as absent. `apiEndpoint`, when given, must be an http:// or https:// URL.
         */
        FireboltCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Client ID
             * @description Service account ID.
             */
            client_id: string;
            /**
             * Client secret
             * Format: password
             * @description Service account secret.
             */
            client_secret: string;
            /**
             * Account name
             * @description Firebolt account.
             */
            account_name: string;
            /**
             * Database
             * @description Database to query.
             */
            database: string;
            /**
             * Engine name
             * @description Engine that runs the queries.
             */
            engine_name: string;
            /**
             * API endpoint
             * @description An http(s):// URL replacing https://api.app.firebolt.io (private link, proxy).
             */
            apiEndpoint?: string;
        };
        /**
         * Amazon Athena credentials
         * @description The credentials of a `athena` datasource. Unknown fields are refused; a field set to null counts as absent. `s3OutputLocation` must be an s3:// URI. `endpoint`, when given, must be an http:// or https:// URL.
         */
        AmazonAthenaCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Region
             * @description AWS region, e.g. eu-west-1.
             */
            region: string;
            /**
             * Access key ID
             * @description AWS access key ID.
             */
            accessKeyId: string;
            /**
             * Secret access key
             * Format: password
             * @description AWS secret access key.
             */
            secretAccessKey: string;
            /**
             * S3 output location
             * @description Where Athena writes query results: an s3:// URI.
             */
            s3OutputLocation: string;
            /**
             * Workgroup
             * @description Athena workgroup (default: primary).
             */
            workgroup?: string;
            /**
             * Catalog
             * @description Data catalog (default: AwsDataCatalog).
             */
            catalog?: string;
            /**
             * Database
             * @description Default database.
             */
            database?: string;
            /**
             * Endpoint
             * @description An http(s):// URL replacing https://athena.<region>.amazonaws.com (VPC endpoint, proxy).
             */
            endpoint?: string;
        };
        /**
         * Trino credentials
         * @description The credentials of a `trino` datasource. Unknown fields are refused; a field set to null counts as absent. `tlsCaCertificate`, when given, must hold PEM certificates.
         */
        TrinoCredentials: {
            /**
             * Name
             * @description Identifies the datasource: unique per organization, case-sensitive, 1-100 characters.
             */
            name: string;
            /**
             * Host
             * @description Hostname or IP address of the Trino coordinator.
             */
            host: string;
            /**
             * Port
             * @description TCP port of the coordinator (usually 8080, or 443 with TLS).
             */
            port: number;
            /**
             * User
             * @description Trino user.
             */
            user: string;
            /**
             * Password
             * Format: password
             * @description Password, for password authentication (Trino accepts it over https only).
             */
            password?: string;
            /**
             * Catalog
             * @description Catalog to query.
             */
            catalog: string;
            /**
             * Schema
             * @description Default schema.
             */
            schema?: string;
            /**
             * SSL
             * @description Use https (the certificate is verified).
             */
            ssl?: boolean;
            /**
             * TLS CA certificate
             * @description PEM certificate(s) of the CA that signs the server's certificate (a private CA); without it, the public roots.
             */
            tlsCaCertificate?: string;
        };
        /**
         * Tenancy settings
         * @description How the datasource isolates its clients: rows filtered by a client column of one table (TABLE), or one database per client (DATABASE).
         */
        TenancySettings: {
            /** @enum {unknown} */
            tenancyLevel: "TABLE";
            /**
             * Client column type
             * @description Type of the client column. Required when tenancyLevel is TABLE.
             * @enum {unknown}
             */
            clientColumnType: "NUMBER" | "STRING";
            /**
             * Schema name
             * @description Schema of the tenancy table. Required when tenancyLevel is TABLE.
             */
            schemaName: string;
            /**
             * Table name
             * @description The tenancy table. Required when tenancyLevel is TABLE.
             */
            tableName: string;
            /**
             * Client name column
             * @description Column holding the client id. Required when tenancyLevel is TABLE.
             */
            tableClientNameColumn: string;
            /**
             * Primary key column
             * @description Primary key of the tenancy table. Required when tenancyLevel is TABLE.
             */
            tablePrimaryKeyColumn: string;
        } | {
            /** @enum {unknown} */
            tenancyLevel: "DATABASE";
            /**
             * Client column type
             * @description Type of the client column. Required when tenancyLevel is TABLE.
             * @enum {unknown}
             */
            clientColumnType?: "NUMBER" | "STRING";
            /**
             * Schema name
             * @description Schema of the tenancy table. Required when tenancyLevel is TABLE.
             */
            schemaName?: string;
            /**
             * Table name
             * @description The tenancy table. Required when tenancyLevel is TABLE.
             */
            tableName?: string;
            /**
             * Client name column
             * @description Column holding the client id. Required when tenancyLevel is TABLE.
             */
            tableClientNameColumn?: string;
            /**
             * Primary key column
             * @description Primary key of the tenancy table. Required when tenancyLevel is TABLE.
             */
            tablePrimaryKeyColumn?: string;
        };
        /**
         * Tenancy settings (update)
         * @description Merged into the stored settings: a given field replaces the stored one, a null field removes it. The merged settings must be complete (TABLE needs every table field). Omitted: the stored settings stay.
         */
        TenancySettingsUpdate: {
            /**
             * Tenancy level
             * @description Row filter on a table, or one database per client.
             * @enum {unknown}
             */
            tenancyLevel?: "TABLE" | "DATABASE";
            clientColumnType?: ("NUMBER" | "STRING") | null;
            schemaName?: string | null;
            tableName?: string | null;
            tableClientNameColumn?: string | null;
            tablePrimaryKeyColumn?: string | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listDataApps: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            /** @enum {string} */
                            type: "embedded";
                            createdAt: string;
                            updatedAt: string;
                            embedCount: number;
                            embeds: {
                                name: string;
                                embedId: string;
                                createdAt: string;
                                updatedAt: string;
                            }[];
                        }[];
                    };
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    renameDataApp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "salesapp",
                 *       "updateName": "salesappeu"
                 *     }
                 */
                "application/json": {
                    /** @description The current name of the data app */
                    name: string;
                    /** @description The new name: letters and digits, unique in the organization */
                    updateName: string;
                };
            };
        };
        responses: {
            /** @description The new name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked.
             *     - `DATA_APP_NOT_FOUND`: No data app of the organization is called `name`.
             *     - `DATA_APP_ALREADY_EXISTS`: Another data app of the organization is called `updateName`.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createDataApp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "salesapp"
                 *     }
                 */
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description The data app name and its API key (shown once). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                        key: string;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `DATA_APP_ALREADY_EXISTS`: The organization already has a data app with that name.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listApiTokens: {
        parameters: {
            query: {
                dataAppName: string;
                isPagination?: "true" | "false";
                /** @description 1-based page number */
                pageNumber?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            key: string;
                            name: string;
                            description: string;
                            createdAt: string;
                        }[];
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked.
             *     - `DATA_APP_NOT_FOUND`: No data app of the organization has that name.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "dataAppName": "salesapp",
                 *       "name": "backend-eu",
                 *       "description": "The EU backend, rotated quarterly"
                 *     }
                 */
                "application/json": {
                    dataAppName: string;
                    name: string;
                    description?: string;
                };
            };
        };
        responses: {
            /** @description The new API key (shown once). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        key: string;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked.
             *     - `DATA_APP_NOT_FOUND`: No data app of the organization has that name.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    revokeApiToken: {
        parameters: {
            query: {
                dataAppName: string;
                key: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The identifier of the revoked key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        key: string;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when the data app has no active key with that identifier.
             *     - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked.
             *     - `DATA_APP_NOT_FOUND`: No data app of the organization has that name.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAppEmbeds: {
        parameters: {
            query?: {
                isPagination?: "true" | "false";
                /** @description 1-based page number */
                pageNumber?: string;
                clientId?: string;
            };
            header?: never;
            path: {
                /** @description The name of one of your data apps */
                dataAppName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            embedId: string;
                            embedType: "dashboard" | "metric";
                            name: string;
                            externalDashboard: {
                                externalDashboardId: string;
                                /** @description The dashboard's createdAt and updatedAt (ISO 8601), and the metadata given when it was created with its embed */
                                metadata: {
                                    createdAt: string;
                                    updatedAt: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                name: string;
                            } | null;
                            externalMetric: {
                                metricId: string;
                                name: string;
                            } | null;
                            embedMetadata: {
                                embedId: string;
                                name: string;
                                embedType: string;
                                dataAppName: string;
                                metricId: string | null;
                                dashboardId: string | null;
                                embedDescription: string | null;
                                createdAt: string;
                                updatedAt: string;
                            };
                        }[];
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `DATA_APP_NOT_FOUND`: No data app of the organization has that name.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateAppEmbed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The name of one of your data apps */
                dataAppName: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "embedId": "emb_1f2e3d4c5b6a7988",
                 *       "accessSettings": {
                 *         "isAllowUnderlyingData": false,
                 *         "joinModel": "multi"
                 *       },
                 *       "workspaceName": "main"
                 *     }
                 */
                "application/json": {
                    embedId: string;
                    /** @description The accessSettings fields to change (any subset); the others keep their values. Checked by the service: an unknown field or a wrong type is 400 INVALID_ACCESS_SETTINGS. */
                    accessSettings: {
                        [key: string]: unknown;
                    };
                    workspaceName?: string;
                };
            };
        };
        responses: {
            /** @description The id of the embed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `DATA_APP_NOT_FOUND`: No data app of the organization has that name.
             *     - `INVALID_ACCESS_SETTINGS`: accessSettings has an undeclared field or a wrongly typed value; the message names it.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INSUFFICIENT_PERMISSIONS`: The embed belongs to another data app. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /**
             * @description - `EMBED_NOT_FOUND`: No embed with that embedId.
             *     - `INVALID_WORKSPACE_NAME`: No workspace of the organization has that name.
             *     - `INVALID_DATAMART`: accessSettings.datamartName names no datamart of the organization.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `CONFLICTING_UPDATE`: joinModel and the legacy isIncrementalJoin disagree. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createAppEmbed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The name of one of your data apps */
                dataAppName: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    dashboardId: string;
                    /** @enum {string} */
                    embedType: "dashboard";
                    workspaceName: string;
                    /** @description Defaults to the embed id */
                    name?: string;
                    /** @description Required for a dashboard embed, with datamartName and every permission flag. */
                    accessSettings: {
                        datamartName: string;
                        isAllowAiPilot?: boolean;
                        isAllowEmailReports: boolean;
                        isAllowManageMetrics: boolean;
                        isAllowCreateDashboardView: boolean;
                        isAllowEndUserDashboardFilter?: boolean;
                        dashboardFilterColumns?: {
                            tableName: string;
                            columns: string[];
                        }[];
                        isAllowMetricCreation: boolean;
                        isAllowMetricDeletion: boolean;
                        isAllowMetricLayoutChange: boolean;
                        isAllowMetricUpdate: boolean;
                        isAllowUnderlyingData: boolean;
                        joinModel?: "single" | "multi";
                        isIncrementalJoin?: boolean;
                        metricCreationMode: "DRAG_DROP" | "CHAT";
                        tableTenancySettings?: {
                            name: string;
                            clientColumn: string;
                        }[];
                    };
                } | {
                    dashboardId: string;
                    /** @enum {string} */
                    embedType: "metric";
                    metricId: string;
                    workspaceName: string;
                    /** @description Defaults to the embed id */
                    name?: string;
                    /** @description Optional for a metric embed; when given, every permission flag. */
                    accessSettings?: {
                        datamartName?: string;
                        isAllowAiPilot?: boolean;
                        isAllowEmailReports: boolean;
                        isAllowManageMetrics: boolean;
                        isAllowCreateDashboardView: boolean;
                        isAllowEndUserDashboardFilter?: boolean;
                        dashboardFilterColumns?: {
                            tableName: string;
                            columns: string[];
                        }[];
                        isAllowMetricCreation: boolean;
                        isAllowMetricDeletion: boolean;
                        isAllowMetricLayoutChange: boolean;
                        isAllowMetricUpdate: boolean;
                        isAllowUnderlyingData: boolean;
                        joinModel?: "single" | "multi";
                        isIncrementalJoin?: boolean;
                        metricCreationMode: "DRAG_DROP" | "CHAT";
                        tableTenancySettings?: {
                            name: string;
                            clientColumn: string;
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description The id of the new embed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when accessSettings lacks a field required on create (the message names it).
             *     - `DATA_APP_NOT_FOUND`: No data app of the organization has that name.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /**
             * @description - `INVALID_WORKSPACE_NAME`: No workspace of the organization has that name.
             *     - `INVALID_DASHBOARD_ID`: No dashboard with that dashboardId in the workspace.
             *     - `INVALID_METRIC_ID`: The dashboard has no metric with that metricId.
             *     - `INVALID_DATAMART`: accessSettings.datamartName names no datamart of the organization.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteAppEmbed: {
        parameters: {
            query: {
                embedId: string;
                isDeleteDashboard?: "true" | "false";
            };
            header?: never;
            path: {
                /** @description The name of one of your data apps */
                dataAppName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The id of the deleted embed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The data app has no such embed, or (with isDeleteDashboard) its dashboard cannot be deleted.
             *     - `DATA_APP_NOT_FOUND`: No data app of the organization has that name.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    readAppEmbedAccess: {
        parameters: {
            query: {
                embedId: string;
            };
            header?: never;
            path: {
                /** @description The name of one of your data apps */
                dataAppName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            embedId: string;
                            accessSettings: {
                                datamartName?: string;
                                isAllowAiPilot?: boolean;
                                isAllowEmailReports?: boolean;
                                isAllowManageMetrics?: boolean;
                                isAllowCreateDashboardView?: boolean;
                                isAllowEndUserDashboardFilter?: boolean;
                                dashboardFilterColumns?: {
                                    tableName: string;
                                    columns: string[];
                                }[];
                                isAllowMetricCreation?: boolean;
                                isAllowMetricDeletion?: boolean;
                                isAllowMetricLayoutChange?: boolean;
                                isAllowMetricUpdate?: boolean;
                                isAllowUnderlyingData?: boolean;
                                joinModel?: "single" | "multi";
                                isIncrementalJoin?: boolean;
                                metricCreationMode?: "DRAG_DROP" | "CHAT";
                                tableTenancySettings?: {
                                    name: string;
                                    clientColumn: string;
                                }[];
                            };
                        };
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `DATA_APP_NOT_FOUND`: No data app of the organization has that name.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `EMBED_NOT_FOUND`: The data app has no such embed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAppWhitelistDomains: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The name of one of your data apps */
                dataAppName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: string[];
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `DATA_APP_NOT_FOUND`: No data app of the organization has that name.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    setAppWhitelistDomains: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The name of one of your data apps */
                dataAppName: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "domains": [
                 *         "app.example.com",
                 *         "*.customer.com",
                 *         "localhost:3000"
                 *       ]
                 *     }
                 */
                "application/json": {
                    domains: string[];
                };
            };
        };
        responses: {
            /** @description The list as stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: string[];
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `DATA_APP_NOT_FOUND`: No data app of the organization has that name.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listDatasources: {
        parameters: {
            query?: {
                isPagination?: "true" | "false";
                /** @description 1-based page number */
                pageNumber?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            datasourceType: string;
                            createdAt: string;
                        }[];
                    };
                };
            };
            /** @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateDatasource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The complete credentials of the same type (`credentials.name` selects the datasource), and optionally tenancy settings to merge. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "datasourceType": "postgres",
                 *       "credentials": {
                 *         "name": "warehouse",
                 *         "host": "db-replica.internal",
                 *         "port": 5432,
                 *         "username": "strata_reader",
                 *         "password": "reader-password",
                 *         "database": "analytics",
                 *         "schema": "public",
                 *         "sslMode": true
                 *       },
                 *       "tenancySettings": {
                 *         "tableName": "accounts"
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @enum {unknown} */
                    datasourceType: "snowflake";
                    credentials: components["schemas"]["SnowflakeCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "postgres";
                    credentials: components["schemas"]["PostgreSQLCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "redshift";
                    credentials: components["schemas"]["RedshiftCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "cockroachdb";
                    credentials: components["schemas"]["CockroachDBCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "mysql";
                    credentials: components["schemas"]["MySQLCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "mongodb";
                    credentials: components["schemas"]["MongoDBCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "clickhouse";
                    credentials: components["schemas"]["ClickHouseCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "singlestore";
                    credentials: components["schemas"]["SingleStoreCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "bigquery";
                    credentials: components["schemas"]["BigQueryCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "databricks";
                    credentials: components["schemas"]["DatabricksCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "elasticsearch";
                    credentials: components["schemas"]["ElasticsearchCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "opensearch";
                    credentials: components["schemas"]["OpenSearchCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "mssql";
                    credentials: components["schemas"]["SQLServerCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "awss3";
                    credentials: components["schemas"]["AmazonS3Credentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "csv";
                    credentials: components["schemas"]["CSVCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "firebolt";
                    credentials: components["schemas"]["FireboltCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "athena";
                    credentials: components["schemas"]["AmazonAthenaCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "trino";
                    credentials: components["schemas"]["TrinoCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettingsUpdate"];
                };
            };
        };
        responses: {
            /** @description The datasource, without any credential field; its name also at the top level (`name`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The datasource name (as `data.name`) */
                        name: string;
                        data: {
                            /** @description use as datasourceId for sync */
                            id: string;
                            name: string;
                            datasourceType: string;
                            tenancySettings: {
                                tenancyLevel: "TABLE" | "DATABASE";
                                clientColumnType?: "NUMBER" | "STRING";
                                schemaName?: string;
                                tableName?: string;
                                tableClientNameColumn?: string;
                                tablePrimaryKeyColumn?: string;
                            } | null;
                            /** @description tables found by introspection */
                            tables: number;
                            createdAt: string;
                            updatedAt: string;
                            /** @description Present when the datasource was saved but introspection found no table (the reason and what to do) */
                            warnings?: string[];
                        };
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when the credentials do not fit datasourceType (the message names the field, e.g. `credentials.port must be an integer between 1 and 65535`), or the TABLE tenancy table or its columns do not exist. Also when no datasource has that name, datasourceType differs from its type, or a secret is left out while a host, URL or port field changed.
             *     - `DATASOURCE_CONNECTION_ERROR`: The warehouse could not be reached or refused the credentials; the message gives the driver's reason.
             *     - `DATASOURCE_NOT_SUPPORTED`: The datasource needs what its server cannot do (e.g. a ClickHouse server too old for query parameters).
             *     - `QUERY_ERROR`: The introspection of the tables failed.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createDatasource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A datasource: its type, the credentials of that type (with its name) and, optionally, its tenancy. */
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {unknown} */
                    datasourceType: "snowflake";
                    credentials: components["schemas"]["SnowflakeCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "postgres";
                    credentials: components["schemas"]["PostgreSQLCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "redshift";
                    credentials: components["schemas"]["RedshiftCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "cockroachdb";
                    credentials: components["schemas"]["CockroachDBCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "mysql";
                    credentials: components["schemas"]["MySQLCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "mongodb";
                    credentials: components["schemas"]["MongoDBCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "clickhouse";
                    credentials: components["schemas"]["ClickHouseCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "singlestore";
                    credentials: components["schemas"]["SingleStoreCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "bigquery";
                    credentials: components["schemas"]["BigQueryCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "databricks";
                    credentials: components["schemas"]["DatabricksCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "elasticsearch";
                    credentials: components["schemas"]["ElasticsearchCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "opensearch";
                    credentials: components["schemas"]["OpenSearchCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "mssql";
                    credentials: components["schemas"]["SQLServerCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "awss3";
                    credentials: components["schemas"]["AmazonS3Credentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "csv";
                    credentials: components["schemas"]["CSVCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "firebolt";
                    credentials: components["schemas"]["FireboltCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "athena";
                    credentials: components["schemas"]["AmazonAthenaCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                } | {
                    /** @enum {unknown} */
                    datasourceType: "trino";
                    credentials: components["schemas"]["TrinoCredentials"];
                    tenancySettings?: components["schemas"]["TenancySettings"];
                };
            };
        };
        responses: {
            /** @description The datasource, without any credential field; `id` is what sync takes. Its name also at the top level (`name`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The datasource name (as `data.name`) */
                        name: string;
                        data: {
                            /** @description use as datasourceId for sync */
                            id: string;
                            name: string;
                            datasourceType: string;
                            tenancySettings: {
                                tenancyLevel: "TABLE" | "DATABASE";
                                clientColumnType?: "NUMBER" | "STRING";
                                schemaName?: string;
                                tableName?: string;
                                tableClientNameColumn?: string;
                                tablePrimaryKeyColumn?: string;
                            } | null;
                            /** @description tables found by introspection */
                            tables: number;
                            createdAt: string;
                            updatedAt: string;
                            /** @description Present when the datasource was saved but introspection found no table (the reason and what to do) */
                            warnings?: string[];
                        };
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when the credentials do not fit datasourceType (the message names the field, e.g. `credentials.port must be an integer between 1 and 65535`), or the TABLE tenancy table or its columns do not exist. Also when a datasource of that name exists.
             *     - `DATASOURCE_CONNECTION_ERROR`: The warehouse could not be reached or refused the credentials; the message gives the driver's reason.
             *     - `DATASOURCE_NOT_SUPPORTED`: The datasource needs what its server cannot do (e.g. a ClickHouse server too old for query parameters).
             *     - `QUERY_ERROR`: The introspection of the tables failed.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteDatasource: {
        parameters: {
            query: {
                name: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The id of the deleted datasource. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also while a datamart or a DATASOURCE workspace uses the datasource.
             *     - `INVALID_DATASOURCE_NAME`: No datasource has that name.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    syncDatasource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "input": {
                 *         "datasourceId": "warehouse"
                 *       }
                 *     }
                 */
                "application/json": {
                    input: {
                        /** @description The id from create, or the name */
                        datasourceId: string;
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            message: string;
                        };
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `DATASOURCE_ID_ERROR`: No datasource has that id (or name).
             *     - `DATASOURCE_CONNECTION_ERROR`: The warehouse could not be reached or refused the credentials; the message gives the driver's reason.
             *     - `QUERY_ERROR`: The introspection of the tables failed.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listDatasourceTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            datasourceType: string;
                            /** @description The type in words, e.g. PostgreSQL credentials */
                            title: string;
                            /** @description false: the credentials validate, but this server cannot connect to it */
                            supported: boolean;
                            /** @description The engine has FULL JOIN: a datamart relationship of this type may use it */
                            fullJoin: boolean;
                            fields: {
                                /** @description The key under `credentials` */
                                name: string;
                                label: string;
                                description: string;
                                kind: "text" | "longText" | "integer" | "boolean" | "choice";
                                required: boolean;
                                /** @description Never answered back; the form leaves it empty and keeps the saved value */
                                secret: boolean;
                                /** @description The values of a `choice` */
                                options?: string[];
                                minimum?: number;
                                maximum?: number;
                                default?: string | number | boolean;
                            }[];
                        }[];
                    };
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listDatasourceTables: {
        parameters: {
            query: {
                /** @description The datasource name */
                name: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            datasourceType: string;
                            tables: {
                                schema: string;
                                name: string;
                                columns: {
                                    name: string;
                                    /** @description string, number, integer, boolean, date, datetime, json or unknown */
                                    dataType: string;
                                    nativeType?: string;
                                }[];
                            }[];
                            updatedAt: string;
                        };
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `INVALID_DATASOURCE_NAME`: No datasource has that name.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    datasourceSettings: {
        parameters: {
            query: {
                /** @description The datasource name */
                name: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            datasourceType: string;
                            /** @description The stored credentials without any secret field */
                            credentials: {
                                [key: string]: unknown;
                            };
                            /** @description The secret fields that hold a stored value (names only): an update that omits one keeps it */
                            storedSecrets: string[];
                            tenancySettings: {
                                [key: string]: unknown;
                            } | null;
                            updatedAt: string;
                        };
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `INVALID_DATASOURCE_NAME`: No datasource has that name.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    uploadDatasourceFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The folder under FILES_ROOT (usually the datasource name): letters, digits, _ - . (not first) */
                datasourceName: string;
                /** @description Letters, digits, _ - . (not first); ends in .csv, .parquet or .json */
                fileName: string;
            };
            cookie?: never;
        };
        /** @description The file itself, as the raw body (up to FILE_UPLOAD_LIMIT) */
        requestBody: {
            content: {
                /**
                 * @example country,amount,ordered_at
                 *     DE,120.50,2026-01-15
                 *     FR,80.00,2026-01-16
                 */
                "application/octet-stream": unknown;
            };
        };
        responses: {
            /** @description Where the file is, relative to FILES_ROOT, and its size. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Relative to FILES_ROOT: use it (or its folder) as a csv datasource path */
                            path: string;
                            /** @description bytes stored */
                            size: number;
                        };
                        error: null;
                    };
                };
            };
            /** @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when a name breaks the rule (1-128 letters, digits, `_ - .`, not first; the file name ends in .csv, .parquet or .json) or the body is empty; and when the file breaks the file limits (size, line length, JSON nested deeper than 64 levels: docs/datasources.md), naming it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The file is larger than FILE_UPLOAD_LIMIT (100 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: The Content-Type header is not a media type. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listDatamarts: {
        parameters: {
            query?: {
                isPagination?: "true" | "false";
                /** @description 1-based page number */
                pageNumber?: string;
                expandDetails?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            createdAt: string;
                            updatedAt: string;
                            datamartOrganization: {
                                tenancyLevel: ("TABLE" | "DATABASE" | "MULTI_DATABASE") | null;
                                schemaName: string | null;
                                tableName: string | null;
                                clientColumnType: string | null;
                                primaryDatabaseName: string | null;
                                tableClientNameColumn: string | null;
                                tablePrimaryKeyColumn: string | null;
                            };
                            companyIntegration: {
                                name: string;
                                datasourceType: string;
                            };
                            datamartTables?: {
                                /** @description The table's schema; empty for a table that has none (an index) */
                                schemaName: string;
                                tableName: string;
                                label: string;
                                clientColumn: string | null;
                                isHide: boolean;
                                datamartTableColumns: {
                                    columnName: string;
                                    /** @description The column's data type as read from the database: string, number, integer, boolean, date, datetime, json or unknown */
                                    datatype: string;
                                    alias: string;
                                    label: string;
                                    isHide: boolean;
                                    /** @description percent: the value is a fraction (0.25 is 25%) */
                                    format?: {
                                        style: "number" | "currency" | "percent" | "id" | "text";
                                        /** @description ISO 4217 code (USD, EUR, …); only with style currency */
                                        currency?: string;
                                        decimals?: number;
                                        /** @description 1.2K, 3.4M */
                                        compact?: boolean;
                                    };
                                    isCustomColumn: boolean;
                                    sql: string;
                                    isApplyTimezone: boolean;
                                    defaultSort: ("ASC" | "DESC") | null;
                                }[];
                            }[];
                            datamartRelationships?: {
                                /** @description schema.table, or table where it has no schema */
                                parentTableName: string;
                                parentColumnName: string;
                                /** @description schema.table, or table where it has no schema */
                                childTableName: string;
                                childColumnName: string;
                                relationshipName: string;
                                cardinality: ("ManyToMany" | "ManyToOne" | "OneToMany" | "OneToOne") | null;
                                join: ("INNER JOIN" | "LEFT JOIN" | "RIGHT JOIN" | "FULL JOIN") | null;
                            }[];
                        }[];
                        error: null;
                    };
                };
            };
            /** @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateDatamart: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "datamartName": "sales",
                 *       "tableList": [
                 *         {
                 *           "schemaName": "public",
                 *           "name": "orders",
                 *           "label": "Orders",
                 *           "clientColumn": "tenant",
                 *           "columns": [
                 *             {
                 *               "name": "amount",
                 *               "label": "Amount",
                 *               "defaultSort": "DESC"
                 *             },
                 *             {
                 *               "name": "internal_note",
                 *               "isHide": true
                 *             },
                 *             {
                 *               "name": "amount_eur",
                 *               "isCustomColumn": true,
                 *               "sql": "amount * 0.92",
                 *               "label": "Amount (EUR)"
                 *             }
                 *           ]
                 *         },
                 *         {
                 *           "schemaName": "public",
                 *           "name": "customers",
                 *           "label": "Customers",
                 *           "clientColumn": "tenant"
                 *         }
                 *       ],
                 *       "relationships": [
                 *         {
                 *           "parentTable": "public.customers",
                 *           "parentColumn": "id",
                 *           "childTable": "public.orders",
                 *           "childColumn": "customer_id",
                 *           "name": "customer orders",
                 *           "cardinality": "OneToMany",
                 *           "joinType": "LEFT JOIN"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    datamartName: string;
                    tableList: {
                        /** @description The table's schema. Required where the datasource's tables have one; empty or omitted for datasources whose tables have none (an Elasticsearch or OpenSearch index). */
                        schemaName?: string;
                        name?: string;
                        tableName?: string;
                        label?: string;
                        clientColumn?: string | null;
                        isHide?: boolean;
                        columns?: {
                            name?: string;
                            columnName?: string;
                            /** @description Accepted and ignored: the type is read from the database */
                            datatype?: string;
                            alias?: string;
                            label?: string;
                            isHide?: boolean;
                            /** @description How the column's values read on cards, tables and axes (number, currency, percent, id, text); inferred from its name and type when absent (docs/dashboard-document.md#column-formats) */
                            format?: {
                                style: "number" | "currency" | "percent" | "id" | "text";
                                /** @description ISO 4217 code (USD, EUR, …); only with style currency */
                                currency?: string;
                                decimals?: number;
                                /** @description 1.2K, 3.4M */
                                compact?: boolean;
                            };
                            isCustomColumn?: boolean;
                            sql?: string;
                            isTimezoneConversion?: boolean;
                            isApplyTimezone?: boolean;
                            defaultSort?: ("ASC" | "DESC") | null;
                        }[];
                        datamartTableColumns?: {
                            name?: string;
                            columnName?: string;
                            /** @description Accepted and ignored: the type is read from the database */
                            datatype?: string;
                            alias?: string;
                            label?: string;
                            isHide?: boolean;
                            /** @description How the column's values read on cards, tables and axes (number, currency, percent, id, text); inferred from its name and type when absent (docs/dashboard-document.md#column-formats) */
                            format?: {
                                style: "number" | "currency" | "percent" | "id" | "text";
                                /** @description ISO 4217 code (USD, EUR, …); only with style currency */
                                currency?: string;
                                decimals?: number;
                                /** @description 1.2K, 3.4M */
                                compact?: boolean;
                            };
                            isCustomColumn?: boolean;
                            sql?: string;
                            isTimezoneConversion?: boolean;
                            isApplyTimezone?: boolean;
                            defaultSort?: ("ASC" | "DESC") | null;
                        }[];
                    }[];
                    relationships?: {
                        parentTable?: string;
                        parentTableName?: string;
                        parentColumn?: string;
                        parentColumnName?: string;
                        childTable?: string;
                        childTableName?: string;
                        childColumn?: string;
                        childColumnName?: string;
                        name?: string;
                        relationshipName?: string;
                        cardinality?: ("ManyToMany" | "ManyToOne" | "OneToMany" | "OneToOne") | null;
                        joinType?: ("INNER JOIN" | "LEFT JOIN" | "RIGHT JOIN" | "FULL JOIN") | null;
                        join?: ("INNER JOIN" | "LEFT JOIN" | "RIGHT JOIN" | "FULL JOIN") | null;
                    }[];
                    /** @description as on the datasource */
                    tenancySettings?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description The id of the datamart. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        error: null;
                    };
                };
            };
            /** @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when a table or column of tableList or relationships is not in the datasource, a table is listed twice, or a custom column has no sql. Also when no datamart has that name. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createDatamart: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "sales",
                 *       "datasourceName": "warehouse",
                 *       "tableList": [
                 *         {
                 *           "schemaName": "public",
                 *           "name": "orders",
                 *           "label": "Orders",
                 *           "clientColumn": "tenant",
                 *           "columns": [
                 *             {
                 *               "name": "amount",
                 *               "label": "Amount",
                 *               "defaultSort": "DESC"
                 *             },
                 *             {
                 *               "name": "internal_note",
                 *               "isHide": true
                 *             },
                 *             {
                 *               "name": "amount_eur",
                 *               "isCustomColumn": true,
                 *               "sql": "amount * 0.92",
                 *               "label": "Amount (EUR)"
                 *             }
                 *           ]
                 *         },
                 *         {
                 *           "schemaName": "public",
                 *           "name": "customers",
                 *           "label": "Customers",
                 *           "clientColumn": "tenant"
                 *         }
                 *       ],
                 *       "relationships": [
                 *         {
                 *           "parentTable": "public.customers",
                 *           "parentColumn": "id",
                 *           "childTable": "public.orders",
                 *           "childColumn": "customer_id",
                 *           "name": "customer orders",
                 *           "cardinality": "OneToMany",
                 *           "joinType": "LEFT JOIN"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    name: string;
                    datasourceName: string;
                    tableList: {
                        /** @description The table's schema. Required where the datasource's tables have one; empty or omitted for datasources whose tables have none (an Elasticsearch or OpenSearch index). */
                        schemaName?: string;
                        name?: string;
                        tableName?: string;
                        label?: string;
                        clientColumn?: string | null;
                        isHide?: boolean;
                        columns?: {
                            name?: string;
                            columnName?: string;
                            /** @description Accepted and ignored: the type is read from the database */
                            datatype?: string;
                            alias?: string;
                            label?: string;
                            isHide?: boolean;
                            /** @description How the column's values read on cards, tables and axes (number, currency, percent, id, text); inferred from its name and type when absent (docs/dashboard-document.md#column-formats) */
                            format?: {
                                style: "number" | "currency" | "percent" | "id" | "text";
                                /** @description ISO 4217 code (USD, EUR, …); only with style currency */
                                currency?: string;
                                decimals?: number;
                                /** @description 1.2K, 3.4M */
                                compact?: boolean;
                            };
                            isCustomColumn?: boolean;
                            sql?: string;
                            isTimezoneConversion?: boolean;
                            isApplyTimezone?: boolean;
                            defaultSort?: ("ASC" | "DESC") | null;
                        }[];
                        datamartTableColumns?: {
                            name?: string;
                            columnName?: string;
                            /** @description Accepted and ignored: the type is read from the database */
                            datatype?: string;
                            alias?: string;
                            label?: string;
                            isHide?: boolean;
                            /** @description How the column's values read on cards, tables and axes (number, currency, percent, id, text); inferred from its name and type when absent (docs/dashboard-document.md#column-formats) */
                            format?: {
                                style: "number" | "currency" | "percent" | "id" | "text";
                                /** @description ISO 4217 code (USD, EUR, …); only with style currency */
                                currency?: string;
                                decimals?: number;
                                /** @description 1.2K, 3.4M */
                                compact?: boolean;
                            };
                            isCustomColumn?: boolean;
                            sql?: string;
                            isTimezoneConversion?: boolean;
                            isApplyTimezone?: boolean;
                            defaultSort?: ("ASC" | "DESC") | null;
                        }[];
                    }[];
                    relationships?: {
                        parentTable?: string;
                        parentTableName?: string;
                        parentColumn?: string;
                        parentColumnName?: string;
                        childTable?: string;
                        childTableName?: string;
                        childColumn?: string;
                        childColumnName?: string;
                        name?: string;
                        relationshipName?: string;
                        cardinality?: ("ManyToMany" | "ManyToOne" | "OneToMany" | "OneToOne") | null;
                        joinType?: ("INNER JOIN" | "LEFT JOIN" | "RIGHT JOIN" | "FULL JOIN") | null;
                        join?: ("INNER JOIN" | "LEFT JOIN" | "RIGHT JOIN" | "FULL JOIN") | null;
                    }[];
                    /** @description as on the datasource */
                    tenancySettings?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description The id of the new datamart. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when a table or column of tableList or relationships is not in the datasource, a table is listed twice, or a custom column has no sql. Also when a datamart of that name exists.
             *     - `DATASOURCE_NAME_ERROR`: datasourceName names no datasource of the organization.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteDatamart: {
        parameters: {
            query: {
                datamartName: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The id of the deleted datamart. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        error: null;
                    };
                };
            };
            /** @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when no datamart has that name, or a workspace uses it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWorkspaces: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            connectionType: "DATASOURCE" | "DATAMART" | "MULTI_DATASOURCE" | "MULTI_DATAMART";
                            datasourceName: string | null;
                            datamartName: string | null;
                            createdAt: string;
                        }[];
                    };
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    connectionType: "DATASOURCE" | "DATAMART" | "MULTI_DATASOURCE" | "MULTI_DATAMART";
                    datasourceName?: string;
                    datamartName?: string;
                    llmName?: string;
                    aiCopilotLlms?: string[];
                    isEnableMetricSuggestions?: boolean;
                    isEnableMetricSummary?: boolean;
                    summaryType?: string;
                    customSummaryPrompt?: string;
                    themeName?: string;
                };
            };
        };
        responses: {
            /** @description The name of the workspace. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                        };
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `WORKSPACE_DOES_NOT_EXIST`: No workspace of the organization has that name.
             *     - `INVALID_DATASOURCE_NAME`: The datasource name is missing where the connection type needs it, or names no datasource.
             *     - `INVALID_DATAMART_NAME`: The datamart name is missing where the connection type needs it, or names no datamart.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    connectionType: "DATASOURCE" | "DATAMART" | "MULTI_DATASOURCE" | "MULTI_DATAMART";
                    datasourceName?: string;
                    datamartName?: string;
                    llmName?: string;
                    aiCopilotLlms?: string[];
                    isEnableMetricSuggestions?: boolean;
                    isEnableMetricSummary?: boolean;
                    summaryType?: string;
                    customSummaryPrompt?: string;
                    themeName?: string;
                };
            };
        };
        responses: {
            /** @description The name of the workspace. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                        };
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when a workspace of that name exists.
             *     - `INVALID_DATASOURCE_NAME`: The datasource name is missing where the connection type needs it, or names no datasource.
             *     - `INVALID_DATAMART_NAME`: The datamart name is missing where the connection type needs it, or names no datamart.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteWorkspace: {
        parameters: {
            query: {
                name: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The id of the deleted workspace. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also while dashboards live in the workspace.
             *     - `WORKSPACE_DOES_NOT_EXIST`: No workspace of the organization has that name.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWorkspaceDashboards: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "workspaceName": "main",
                 *       "isPagination": true,
                 *       "pageNumber": 1
                 *     }
                 */
                "application/json": {
                    workspaceName: string;
                    isPagination?: boolean;
                    pageNumber?: number;
                };
            };
        };
        responses: {
            /** @description The workspace's dashboards. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            externalDashboardId: string;
                        }[];
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `WORKSPACE_ID_ERROR`: workspaceName names no workspace of the organization.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWhitelistDomains: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: string[];
                    };
                };
            };
            /** @description - `INVALID_DATA_APP_API_KEY`: The data app API key is missing, invalid or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    setWhitelistDomains: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "domains": [
                 *         "app.example.com",
                 *         "*.customer.com",
                 *         "localhost:3000"
                 *       ]
                 *     }
                 */
                "application/json": {
                    domains: string[];
                };
            };
        };
        responses: {
            /** @description The list as stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: string[];
                    };
                };
            };
            /** @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INVALID_DATA_APP_API_KEY`: The data app API key is missing, invalid or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    exportDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "dashboardId": "sales-overview",
                 *       "workspaceName": "main"
                 *     }
                 */
                "application/json": {
                    dashboardId: string;
                    workspaceName: string;
                };
            };
        };
        responses: {
            /** @description The dashboard document in `data`, with `_meta`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        _meta: {
                            exportedAt: string;
                            workspaceName: string;
                            dashboardId: string;
                        };
                        data: components["schemas"]["DashboardDocument"];
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when the workspace has no dashboard with that dashboardId.
             *     - `AUTH_ERROR`: The service token is missing, invalid or revoked.
             *     - `WORKSPACE_ID_ERROR`: No workspace of the organization has that workspaceName.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    importDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "workspaceName": "main",
                 *       "importDashboardData": {
                 *         "name": "Sales overview",
                 *         "description": "Revenue and orders by country and month",
                 *         "filters": [
                 *           {
                 *             "name": "country",
                 *             "label": "Country",
                 *             "type": "multi-select",
                 *             "table": "public.orders",
                 *             "column": "country"
                 *           },
                 *           {
                 *             "name": "period",
                 *             "label": "Period",
                 *             "type": "date-range",
                 *             "table": "public.orders",
                 *             "column": "ordered_at",
                 *             "default": "Last 90 days"
                 *           }
                 *         ],
                 *         "layout": [
                 *           {
                 *             "metricId": "revenue",
                 *             "x": 0,
                 *             "y": 0,
                 *             "w": 4,
                 *             "h": 2
                 *           },
                 *           {
                 *             "metricId": "revenue_by_country",
                 *             "x": 4,
                 *             "y": 0,
                 *             "w": 8,
                 *             "h": 4
                 *           }
                 *         ],
                 *         "metrics": [
                 *           {
                 *             "metricId": "revenue",
                 *             "name": "Revenue",
                 *             "chart": {
                 *               "type": "single-value"
                 *             },
                 *             "query": {
                 *               "from": "public.orders",
                 *               "measures": [
                 *                 {
                 *                   "name": "revenue",
                 *                   "aggregate": "sum",
                 *                   "column": "amount"
                 *                 }
                 *               ]
                 *             },
                 *             "comparison": {
                 *               "period": "previous-period"
                 *             }
                 *           },
                 *           {
                 *             "metricId": "revenue_by_country",
                 *             "name": "Revenue by country",
                 *             "chart": {
                 *               "type": "bar",
                 *               "x": "country",
                 *               "y": [
                 *                 "revenue"
                 *               ]
                 *             },
                 *             "query": {
                 *               "from": "public.orders",
                 *               "measures": [
                 *                 {
                 *                   "name": "revenue",
                 *                   "aggregate": "sum",
                 *                   "column": "amount"
                 *                 }
                 *               ],
                 *               "dimensions": [
                 *                 {
                 *                   "name": "country",
                 *                   "column": "country"
                 *                 }
                 *               ],
                 *               "orderBy": [
                 *                 {
                 *                   "name": "revenue",
                 *                   "direction": "desc"
                 *                 }
                 *               ],
                 *               "limit": 10
                 *             },
                 *             "filters": [
                 *               {
                 *                 "name": "status",
                 *                 "label": "Order status",
                 *                 "type": "multi-select",
                 *                 "column": "status"
                 *               }
                 *             ]
                 *           }
                 *         ]
                 *       },
                 *       "dashboardId": "sales-overview",
                 *       "dashboardName": "Sales overview",
                 *       "schemaPairs": [
                 *         {
                 *           "replaceSchema": "staging",
                 *           "targetSchema": "public"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    workspaceName: string;
                    importDashboardData: components["schemas"]["DashboardDocument"];
                    dashboardId?: string;
                    dashboardName?: string;
                    schemaPairs?: {
                        replaceSchema: string;
                        targetSchema: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description What was imported: the message counts the metrics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            response: {
                                message: string;
                                dashboardId: string;
                                dashboardName: string;
                                workspaceName: string;
                            };
                            /** @description Present when the document was read as the hosted service's export and parts of it have no place in Strata's dashboard document: each part left out, as `path: why` */
                            warnings?: string[];
                        };
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when the document does not fit the model or a metric fails its dry run (the message names the metric and the reason), or the workspace is MULTI_DATASOURCE or MULTI_DATAMART. Also when the workspace has a dashboard with that dashboardId.
             *     - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked.
             *     - `WORKSPACE_ID_ERROR`: No workspace of the organization has that workspaceName.
             *     - `DATASOURCE_CONNECTION_ERROR`: The warehouse could not be reached or refused the credentials; the message gives the driver's reason.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "workspaceName": "main",
                 *       "importDashboardData": {
                 *         "name": "Sales overview",
                 *         "description": "Revenue and orders by country and month",
                 *         "filters": [
                 *           {
                 *             "name": "country",
                 *             "label": "Country",
                 *             "type": "multi-select",
                 *             "table": "public.orders",
                 *             "column": "country"
                 *           },
                 *           {
                 *             "name": "period",
                 *             "label": "Period",
                 *             "type": "date-range",
                 *             "table": "public.orders",
                 *             "column": "ordered_at",
                 *             "default": "Last 90 days"
                 *           }
                 *         ],
                 *         "layout": [
                 *           {
                 *             "metricId": "revenue",
                 *             "x": 0,
                 *             "y": 0,
                 *             "w": 4,
                 *             "h": 2
                 *           },
                 *           {
                 *             "metricId": "revenue_by_country",
                 *             "x": 4,
                 *             "y": 0,
                 *             "w": 8,
                 *             "h": 4
                 *           }
                 *         ],
                 *         "metrics": [
                 *           {
                 *             "metricId": "revenue",
                 *             "name": "Revenue",
                 *             "chart": {
                 *               "type": "single-value"
                 *             },
                 *             "query": {
                 *               "from": "public.orders",
                 *               "measures": [
                 *                 {
                 *                   "name": "revenue",
                 *                   "aggregate": "sum",
                 *                   "column": "amount"
                 *                 }
                 *               ]
                 *             },
                 *             "comparison": {
                 *               "period": "previous-period"
                 *             }
                 *           },
                 *           {
                 *             "metricId": "revenue_by_country",
                 *             "name": "Revenue by country",
                 *             "chart": {
                 *               "type": "bar",
                 *               "x": "country",
                 *               "y": [
                 *                 "revenue"
                 *               ]
                 *             },
                 *             "query": {
                 *               "from": "public.orders",
                 *               "measures": [
                 *                 {
                 *                   "name": "revenue",
                 *                   "aggregate": "sum",
                 *                   "column": "amount"
                 *                 }
                 *               ],
                 *               "dimensions": [
                 *                 {
                 *                   "name": "country",
                 *                   "column": "country"
                 *                 }
                 *               ],
                 *               "orderBy": [
                 *                 {
                 *                   "name": "revenue",
                 *                   "direction": "desc"
                 *                 }
                 *               ],
                 *               "limit": 10
                 *             },
                 *             "filters": [
                 *               {
                 *                 "name": "status",
                 *                 "label": "Order status",
                 *                 "type": "multi-select",
                 *                 "column": "status"
                 *               }
                 *             ]
                 *           }
                 *         ]
                 *       },
                 *       "dashboardId": "sales-overview",
                 *       "dashboardName": "Sales overview",
                 *       "schemaPairs": [
                 *         {
                 *           "replaceSchema": "staging",
                 *           "targetSchema": "public"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    workspaceName: string;
                    dashboardId: string;
                    importDashboardData: components["schemas"]["DashboardDocument"];
                    dashboardName?: string;
                    schemaPairs?: {
                        replaceSchema: string;
                        targetSchema: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description What was updated: the message counts the metrics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            response: {
                                message: string;
                                dashboardId: string;
                                dashboardName: string;
                                workspaceName: string;
                            };
                            /** @description End users' metrics (self-serve) that name a table, column or company metric the new version no longer has: dropped, one item each */
                            droppedEndUserMetrics: {
                                metricId: string;
                                clientId: string;
                                reason: string;
                            }[];
                            /** @description Present when the document was read as the hosted service's export and parts of it have no place in Strata's dashboard document: each part left out, as `path: why` */
                            warnings?: string[];
                        };
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when the document does not fit the model or a metric fails its dry run (the message names the metric and the reason), or the workspace is MULTI_DATASOURCE or MULTI_DATAMART. Also when the workspace has no dashboard with that dashboardId.
             *     - `WORKSPACE_ID_ERROR`: No workspace of the organization has that workspaceName.
             *     - `DATASOURCE_CONNECTION_ERROR`: The warehouse could not be reached or refused the credentials; the message gives the driver's reason.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteDashboard: {
        parameters: {
            query: {
                workspaceName: string;
                dashboardId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dashboardId of the deleted dashboard. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when the workspace has no dashboard with that dashboardId, or embeds use it.
             *     - `WORKSPACE_ID_ERROR`: No workspace of the organization has that workspaceName.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    validateDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "workspaceName": "main",
                 *       "importDashboardData": {
                 *         "name": "Sales overview",
                 *         "description": "Revenue and orders by country and month",
                 *         "filters": [
                 *           {
                 *             "name": "country",
                 *             "label": "Country",
                 *             "type": "multi-select",
                 *             "table": "public.orders",
                 *             "column": "country"
                 *           },
                 *           {
                 *             "name": "period",
                 *             "label": "Period",
                 *             "type": "date-range",
                 *             "table": "public.orders",
                 *             "column": "ordered_at",
                 *             "default": "Last 90 days"
                 *           }
                 *         ],
                 *         "layout": [
                 *           {
                 *             "metricId": "revenue",
                 *             "x": 0,
                 *             "y": 0,
                 *             "w": 4,
                 *             "h": 2
                 *           },
                 *           {
                 *             "metricId": "revenue_by_country",
                 *             "x": 4,
                 *             "y": 0,
                 *             "w": 8,
                 *             "h": 4
                 *           }
                 *         ],
                 *         "metrics": [
                 *           {
                 *             "metricId": "revenue",
                 *             "name": "Revenue",
                 *             "chart": {
                 *               "type": "single-value"
                 *             },
                 *             "query": {
                 *               "from": "public.orders",
                 *               "measures": [
                 *                 {
                 *                   "name": "revenue",
                 *                   "aggregate": "sum",
                 *                   "column": "amount"
                 *                 }
                 *               ]
                 *             },
                 *             "comparison": {
                 *               "period": "previous-period"
                 *             }
                 *           },
                 *           {
                 *             "metricId": "revenue_by_country",
                 *             "name": "Revenue by country",
                 *             "chart": {
                 *               "type": "bar",
                 *               "x": "country",
                 *               "y": [
                 *                 "revenue"
                 *               ]
                 *             },
                 *             "query": {
                 *               "from": "public.orders",
                 *               "measures": [
                 *                 {
                 *                   "name": "revenue",
                 *                   "aggregate": "sum",
                 *                   "column": "amount"
                 *                 }
                 *               ],
                 *               "dimensions": [
                 *                 {
                 *                   "name": "country",
                 *                   "column": "country"
                 *                 }
                 *               ],
                 *               "orderBy": [
                 *                 {
                 *                   "name": "revenue",
                 *                   "direction": "desc"
                 *                 }
                 *               ],
                 *               "limit": 10
                 *             },
                 *             "filters": [
                 *               {
                 *                 "name": "status",
                 *                 "label": "Order status",
                 *                 "type": "multi-select",
                 *                 "column": "status"
                 *               }
                 *             ]
                 *           }
                 *         ]
                 *       },
                 *       "dashboardId": "sales-overview",
                 *       "dashboardName": "Sales overview",
                 *       "schemaPairs": [
                 *         {
                 *           "replaceSchema": "staging",
                 *           "targetSchema": "public"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    workspaceName: string;
                    importDashboardData: components["schemas"]["DashboardDocument"];
                    dashboardId?: string;
                    dashboardName?: string;
                    schemaPairs?: {
                        replaceSchema: string;
                        targetSchema: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Whether every metric compiled and ran, and the reason of each that did not. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Every metric compiled and ran (with no rows returned) */
                            valid: boolean;
                            metrics: {
                                metricId: string;
                                valid: boolean;
                                /** @description The compiler's or the warehouse's reason */
                                error?: string;
                            }[];
                            /** @description Present when the document was read as the hosted service's export and parts of it have no place in Strata's dashboard document: each part left out, as `path: why` */
                            warnings?: string[];
                        };
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when the document does not fit the model (a metric that only fails on the warehouse is answered in `metrics`), or the workspace is MULTI_DATASOURCE or MULTI_DATAMART.
             *     - `WORKSPACE_ID_ERROR`: No workspace of the organization has that workspaceName.
             *     - `DATASOURCE_CONNECTION_ERROR`: The warehouse could not be reached or refused the credentials; the message gives the driver's reason.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listEmbeds: {
        parameters: {
            query?: {
                isPagination?: "true" | "false";
                /** @description 1-based page number */
                pageNumber?: string;
                clientId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            embedId: string;
                            embedType: "dashboard" | "metric";
                            name: string;
                            externalDashboard: {
                                externalDashboardId: string;
                                /** @description The dashboard's createdAt and updatedAt (ISO 8601), and the metadata given when it was created with its embed */
                                metadata: {
                                    createdAt: string;
                                    updatedAt: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                name: string;
                            } | null;
                            externalMetric: {
                                metricId: string;
                                name: string;
                            } | null;
                            embedMetadata: {
                                embedId: string;
                                name: string;
                                embedType: string;
                                dataAppName: string;
                                metricId: string | null;
                                dashboardId: string | null;
                                embedDescription: string | null;
                                createdAt: string;
                                updatedAt: string;
                            };
                        }[];
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `INVALID_DATA_APP_API_KEY`: The data app API key is missing, invalid or revoked.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateEmbed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "embedId": "emb_1f2e3d4c5b6a7988",
                 *       "accessSettings": {
                 *         "isAllowUnderlyingData": false,
                 *         "joinModel": "multi"
                 *       },
                 *       "workspaceName": "main"
                 *     }
                 */
                "application/json": {
                    embedId: string;
                    /** @description The accessSettings fields to change (any subset); the others keep their values. Checked by the service: an unknown field or a wrong type is 400 INVALID_ACCESS_SETTINGS. */
                    accessSettings: {
                        [key: string]: unknown;
                    };
                    workspaceName?: string;
                };
            };
        };
        responses: {
            /** @description The id of the embed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `INVALID_ACCESS_SETTINGS`: accessSettings has an undeclared field or a wrongly typed value; the message names it.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERR`: The data app API key is missing, invalid or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INSUFFICIENT_PERMISSIONS`: The embed belongs to another data app of the organization; in the runtime, the action is off in the embed settings or the token permissions. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /**
             * @description - `INVALID_WORKSPACE_NAME`: No workspace of the organization has that name.
             *     - `EMBED_NOT_FOUND`: No embed with that embedId.
             *     - `INVALID_DATAMART`: accessSettings.datamartName names no datamart of the organization.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `CONFLICTING_UPDATE`: joinModel and the legacy isIncrementalJoin disagree. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createEmbed: {
        parameters: {
            query?: {
                embedId?: string;
                isDeleteDashboard?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    dashboardId: string;
                    /** @enum {string} */
                    embedType: "dashboard";
                    workspaceName: string;
                    /** @description Defaults to the embed id */
                    name?: string;
                    /** @description Required for a dashboard embed, with datamartName and every permission flag. */
                    accessSettings: {
                        datamartName: string;
                        isAllowAiPilot?: boolean;
                        isAllowEmailReports: boolean;
                        isAllowManageMetrics: boolean;
                        isAllowCreateDashboardView: boolean;
                        isAllowEndUserDashboardFilter?: boolean;
                        dashboardFilterColumns?: {
                            tableName: string;
                            columns: string[];
                        }[];
                        isAllowMetricCreation: boolean;
                        isAllowMetricDeletion: boolean;
                        isAllowMetricLayoutChange: boolean;
                        isAllowMetricUpdate: boolean;
                        isAllowUnderlyingData: boolean;
                        joinModel?: "single" | "multi";
                        isIncrementalJoin?: boolean;
                        metricCreationMode: "DRAG_DROP" | "CHAT";
                        tableTenancySettings?: {
                            name: string;
                            clientColumn: string;
                        }[];
                    };
                } | {
                    dashboardId: string;
                    /** @enum {string} */
                    embedType: "metric";
                    metricId: string;
                    workspaceName: string;
                    /** @description Defaults to the embed id */
                    name?: string;
                    /** @description Optional for a metric embed; when given, every permission flag. */
                    accessSettings?: {
                        datamartName?: string;
                        isAllowAiPilot?: boolean;
                        isAllowEmailReports: boolean;
                        isAllowManageMetrics: boolean;
                        isAllowCreateDashboardView: boolean;
                        isAllowEndUserDashboardFilter?: boolean;
                        dashboardFilterColumns?: {
                            tableName: string;
                            columns: string[];
                        }[];
                        isAllowMetricCreation: boolean;
                        isAllowMetricDeletion: boolean;
                        isAllowMetricLayoutChange: boolean;
                        isAllowMetricUpdate: boolean;
                        isAllowUnderlyingData: boolean;
                        joinModel?: "single" | "multi";
                        isIncrementalJoin?: boolean;
                        metricCreationMode: "DRAG_DROP" | "CHAT";
                        tableTenancySettings?: {
                            name: string;
                            clientColumn: string;
                        }[];
                    };
                } | {
                    embedId: string;
                    isDeleteDashboard?: boolean;
                };
            };
        };
        responses: {
            /** @description The id of the new embed (what guest tokens and the web component name). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        error: null;
                    } | {
                        id: string;
                        error: null;
                    };
                };
            };
            /** @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when accessSettings lacks a field required on create (the message names it), or metricId is missing for a metric embed. Also, as the legacy delete: when the data app has no such embed, or (with isDeleteDashboard) its dashboard is internal or used by other embeds. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INVALID_DATA_APP_API_KEY`: The data app API key is missing, invalid or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /**
             * @description - `INVALID_WORKSPACE_NAME`: No workspace of the organization has that name.
             *     - `INVALID_DASHBOARD_ID`: No dashboard with that dashboardId in the workspace.
             *     - `INVALID_METRIC_ID`: The dashboard has no metric with that metricId.
             *     - `INVALID_DATAMART`: accessSettings.datamartName names no datamart of the organization.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteEmbed: {
        parameters: {
            query: {
                embedId: string;
                isDeleteDashboard?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The id of the deleted embed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                    };
                };
            };
            /** @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when the data app has no such embed, or (with isDeleteDashboard) its dashboard is internal or used by other embeds. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INVALID_DATA_APP_API_KEY`: The data app API key is missing, invalid or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    renameEmbed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "embedId": "emb_1f2e3d4c5b6a7988",
                 *       "name": "Sales (EMEA)",
                 *       "isRenameDashboard": true
                 *     }
                 */
                "application/json": {
                    embedId: string;
                    name: string;
                    isRenameDashboard?: boolean;
                };
            };
        };
        responses: {
            /** @description The id and the new name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `INVALID_DATA_APP_API_KEY`: The data app API key is missing, invalid or revoked.
             *     - `INVALID_EMBED_ID`: This data app has no embed with that embedId.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    exportEmbed: {
        parameters: {
            query: {
                embedId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dashboard document in `data`, the embed in `_meta`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        _meta: {
                            exportedAt: string;
                            embedId: string;
                            name: string;
                            embedType: string;
                            dashboardId: string;
                            embedDataAppAccessSetting: {
                                [key: string]: unknown;
                            };
                        };
                        data: components["schemas"]["DashboardDocument"];
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `EMBED_PARAM_ERROR`: The embed belongs to another data app.
             *     - `INVALID_EMBED_ID`: No embed with that embedId, or it has no dashboard.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INVALID_DATA_APP_API_KEY`: The data app API key is missing, invalid or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createDashboardEmbed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    dashboardId: string;
                    workspaceName: string;
                    clientId: string;
                    name?: string;
                    isRenameDashboard?: boolean;
                    importDashboardData?: components["schemas"]["DashboardDocument"];
                    schemaPairs?: {
                        replaceSchema: string;
                        targetSchema: string;
                    }[];
                    /** @description With datamartName and every permission flag, as for a dashboard embed. */
                    accessSettings: {
                        datamartName: string;
                        isAllowAiPilot?: boolean;
                        isAllowEmailReports: boolean;
                        isAllowManageMetrics: boolean;
                        isAllowCreateDashboardView: boolean;
                        isAllowEndUserDashboardFilter?: boolean;
                        dashboardFilterColumns?: {
                            tableName: string;
                            columns: string[];
                        }[];
                        isAllowMetricCreation: boolean;
                        isAllowMetricDeletion: boolean;
                        isAllowMetricLayoutChange: boolean;
                        isAllowMetricUpdate: boolean;
                        isAllowUnderlyingData: boolean;
                        joinModel?: "single" | "multi";
                        isIncrementalJoin?: boolean;
                        metricCreationMode: "DRAG_DROP" | "CHAT";
                        tableTenancySettings?: {
                            name: string;
                            clientColumn: string;
                        }[];
                    };
                    /** @description A dashboard of the workspace whose filters, layout and metrics the new dashboard starts with (importDashboardData's own win) */
                    templateDashboardId?: string;
                    /** @description The dashboard's metadata (at most 10,000 characters of JSON; not createdAt or updatedAt): the embeds list shows it */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description Stored with the embed; the embeds list shows it */
                    embedDescription?: string;
                    /** @description The new dashboard document's isAllowPrivateMetricsByDefault */
                    isAllowPrivateMetricsByDefault?: boolean;
                    /** @description false: the new dashboard gets no metrics (nor a layout) from the template or the document. Default true */
                    isImportMetrics?: boolean;
                    /**
                     * @description The one mode: copied metrics are the new dashboard's own, listed by the metrics list
                     * @enum {string}
                     */
                    metricImportMode?: "GALLERY";
                };
            };
        };
        responses: {
            /** @description `id`: the new dashboard's id (dashboardId); `name` and `embedId`: the new embed's; `warnings`: what the document left out, when it was the hosted service's export. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The new dashboard id (dashboardId) */
                        id: string;
                        /** @description The name of the embed */
                        name: string;
                        /** @description The new embed id */
                        embedId: string;
                        error: null;
                        /** @description Present when the document was read as the hosted service's export and parts of it have no place in Strata's dashboard document: each part left out, as `path: why` */
                        warnings?: string[];
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when accessSettings lacks a required field, the document does not fit the model or a metric fails its dry run, or metadata is over 10,000 characters of JSON or sets createdAt or updatedAt.
             *     - `WORKSPACE_ID_ERROR`: workspaceName names no workspace (the hosted service documents this code here).
             *     - `INVALID_DASHBOARD_ID`: The workspace already has a dashboard with that dashboardId.
             *     - `TEMPLATE_DASHBOARD_ERROR`: templateDashboardId names no dashboard of the workspace.
             *     - `DATASOURCE_CONNECTION_ERROR`: The warehouse could not be reached or refused the credentials; the message gives the driver's reason.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INVALID_DATA_APP_API_KEY`: The data app API key is missing, invalid or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INVALID_DATAMART`: accessSettings.datamartName names no datamart of the organization. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listDashboards: {
        parameters: {
            query: {
                isPagination: "true" | "false";
                /** @description 1-based page number */
                pageNumber: string;
                dashboardNames?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            externalDashboardId: string;
                            embedId: string;
                        }[];
                    };
                };
            };
            /** @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INVALID_DATA_APP_API_KEY`: The data app API key is missing, invalid or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listMetrics: {
        parameters: {
            query: {
                embedId: string;
                clientId: string;
                isPagination?: "true" | "false";
                /** @description 1-based page number */
                pageNumber?: string;
                isMetric?: "true" | "false";
                userIdentifier?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            metricId: string;
                            isPublished: boolean;
                            createdByUser: string | null;
                        }[];
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `INVALID_DATA_APP_API_KEY`: The data app API key is missing, invalid or revoked.
             *     - `EMBED_PARAM_ERROR`: The embed (or the metric in it) is unknown for this data app.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    setMetricPublished: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "embedId": "emb_802972233ba2f71d",
                 *       "metricId": "u_3kF9xQ2mZp7A",
                 *       "isPublished": true
                 *     }
                 */
                "application/json": {
                    embedId: string;
                    metricId: string;
                    isPublished: boolean;
                };
            };
        };
        responses: {
            /** @description The id of the metric. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when `isPublished: false` names one of the dashboard's own metrics.
             *     - `INVALID_METRIC_ID`: This data app has no embed `embedId`, or the embed no metric `metricId`.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INVALID_DATA_APP_API_KEY`: The data app API key is missing, invalid or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createGuestToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "dataAppName": "salesapp",
                 *       "clientId": "acme",
                 *       "params": {
                 *         "rlsSettings": [
                 *           {
                 *             "metricId": "revenue",
                 *             "values": {
                 *               "region": [
                 *                 "EMEA"
                 *               ]
                 *             }
                 *           }
                 *         ],
                 *         "appFilters": [
                 *           {
                 *             "metricId": "revenue_by_country",
                 *             "values": {
                 *               "status": [
                 *                 "paid",
                 *                 "shipped"
                 *               ]
                 *             }
                 *           }
                 *         ],
                 *         "dashboardAppFilters": [
                 *           {
                 *             "dashboardId": "sales-overview",
                 *             "values": {
                 *               "Country": [
                 *                 "DE",
                 *                 "FR"
                 *               ]
                 *             },
                 *             "isShowOnUrl": true
                 *           }
                 *         ],
                 *         "hideDashboardFilters": [
                 *           "period"
                 *         ],
                 *         "allowedEmbeds": [
                 *           "sales-overview"
                 *         ],
                 *         "accessPermissions": {
                 *           "isAllowEndUserDashboardFilter": true,
                 *           "dashboardFilterColumns": [
                 *             {
                 *               "tableName": "public.orders",
                 *               "columns": [
                 *                 "country"
                 *               ]
                 *             }
                 *           ]
                 *         },
                 *         "userIdentifier": "user-42",
                 *         "timezone": "Europe/Berlin"
                 *       },
                 *       "permissions": {
                 *         "isEnableDownloadMetrics": true,
                 *         "isEnableUnderlyingData": false,
                 *         "isShowDashboardName": true
                 *       },
                 *       "expiryTime": 3600000
                 *     }
                 */
                "application/json": {
                    dataAppName: string;
                    clientId: string;
                    params?: {
                        rlsSettings?: {
                            metricId: string;
                            values: {
                                [key: string]: boolean | number | string | (string | number | boolean)[] | {
                                    startDate?: string;
                                    endDate?: string;
                                    start?: string;
                                    end?: string;
                                } | {
                                    min?: number;
                                    max?: number;
                                } | {
                                    sql: string;
                                    columnName: string;
                                };
                            };
                        }[];
                        appFilters?: {
                            metricId: string;
                            values: {
                                [key: string]: boolean | number | string | (string | number | boolean)[] | {
                                    startDate?: string;
                                    endDate?: string;
                                    start?: string;
                                    end?: string;
                                } | {
                                    min?: number;
                                    max?: number;
                                } | {
                                    sql: string;
                                    columnName: string;
                                };
                            };
                        }[];
                        dashboardAppFilters?: {
                            dashboardId: string;
                            values: {
                                [key: string]: boolean | number | string | (string | number | boolean)[] | {
                                    startDate?: string;
                                    endDate?: string;
                                    start?: string;
                                    end?: string;
                                } | {
                                    min?: number;
                                    max?: number;
                                } | {
                                    sql: string;
                                    columnName: string;
                                };
                            };
                            isShowOnUrl?: boolean;
                        }[];
                        hideDashboardFilters?: string[];
                        allowedEmbeds?: string[];
                        accessPermissions?: {
                            isAllowEndUserDashboardFilter?: boolean;
                            dashboardFilterColumns?: {
                                tableName: string;
                                columns: string[];
                            }[];
                        };
                        userIdentifier?: string;
                        /** @description Who email reports of this token may go to: addresses, and @domain entries for every address of exactly that domain (no subdomains); case-insensitive. When absent, only userIdentifier when it is an e-mail address. */
                        reportRecipients?: string[];
                        /** @description IANA time zone name */
                        timezone?: string;
                    };
                    permissions?: {
                        isEnableArchiveMetrics?: boolean;
                        isEnableManageMetrics?: boolean;
                        isEnableCreateDashboardView?: boolean;
                        isEnableMetricUpdation?: boolean;
                        isEnableCustomizeLayout?: boolean;
                        isEnableUnderlyingData?: boolean;
                        isEnableDownloadMetrics?: boolean;
                        isShowSideBar?: boolean;
                        isShowDashboardName?: boolean;
                        isDisableMetricCreation?: boolean;
                    };
                    /** @description milliseconds from creation, at least 1000 (one second) */
                    expiryTime?: number;
                    datasourceName?: string;
                    datamartName?: string;
                };
            };
        };
        responses: {
            /** @description The guest token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when dataAppName is not the data app of the key, timezone is not an IANA zone, or an allowedEmbeds id is no embed or dashboard of this data app.
             *     - `APP_FILTER_PARAM_ERROR`: A dashboardAppFilters[].dashboardId is not a dashboard this data app embeds (an embed id sent for it included), or an appFilters[].metricId is not a metric of one.
             *     - `RLS_SETTINGS_PARAM_ERROR`: An rlsSettings[].metricId is not a metric of a dashboard this data app embeds.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createGuestTokenV1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "workspaceName": "main",
                 *       "clientId": "acme",
                 *       "params": {
                 *         "dashboard": {
                 *           "id": "sales-overview"
                 *         }
                 *       },
                 *       "expiryTime": 3600000
                 *     }
                 */
                "application/json": {
                    workspaceName: string;
                    clientId: string;
                    permissions?: {
                        isEnableArchiveMetrics?: boolean;
                        isEnableManageMetrics?: boolean;
                        isEnableCreateDashboardView?: boolean;
                        isEnableMetricUpdation?: boolean;
                        isEnableCustomizeLayout?: boolean;
                        isEnableUnderlyingData?: boolean;
                        isEnableDownloadMetrics?: boolean;
                        isShowSideBar?: boolean;
                        isShowDashboardName?: boolean;
                        isDisableMetricCreation?: boolean;
                    };
                    /** @description milliseconds from creation, at least 1000 (one second) */
                    expiryTime?: number;
                    datasourceName?: string;
                    datamartName?: string;
                    params?: {
                        rlsSettings?: {
                            metricId: string;
                            values: {
                                [key: string]: boolean | number | string | (string | number | boolean)[] | {
                                    startDate?: string;
                                    endDate?: string;
                                    start?: string;
                                    end?: string;
                                } | {
                                    min?: number;
                                    max?: number;
                                } | {
                                    sql: string;
                                    columnName: string;
                                };
                            };
                        }[];
                        appFilters?: {
                            metricId: string;
                            values: {
                                [key: string]: boolean | number | string | (string | number | boolean)[] | {
                                    startDate?: string;
                                    endDate?: string;
                                    start?: string;
                                    end?: string;
                                } | {
                                    min?: number;
                                    max?: number;
                                } | {
                                    sql: string;
                                    columnName: string;
                                };
                            };
                        }[];
                        dashboardAppFilters?: {
                            dashboardId: string;
                            values: {
                                [key: string]: boolean | number | string | (string | number | boolean)[] | {
                                    startDate?: string;
                                    endDate?: string;
                                    start?: string;
                                    end?: string;
                                } | {
                                    min?: number;
                                    max?: number;
                                } | {
                                    sql: string;
                                    columnName: string;
                                };
                            };
                            isShowOnUrl?: boolean;
                        }[];
                        hideDashboardFilters?: string[];
                        allowedEmbeds?: string[];
                        accessPermissions?: {
                            isAllowEndUserDashboardFilter?: boolean;
                            dashboardFilterColumns?: {
                                tableName: string;
                                columns: string[];
                            }[];
                        };
                        userIdentifier?: string;
                        /** @description Who email reports of this token may go to: addresses, and @domain entries for every address of exactly that domain (no subdomains); case-insensitive. When absent, only userIdentifier when it is an e-mail address. */
                        reportRecipients?: string[];
                        /** @description IANA time zone name */
                        timezone?: string;
                        /** @description The one dashboard the token may load (its dashboardId, in the workspace) */
                        dashboard?: {
                            id: string;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description The guest token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when timezone is not an IANA zone, an allowedEmbeds id is no embed or dashboard of this data app, or both params.dashboard and params.allowedEmbeds are sent.
             *     - `WORKSPACE_ID_ERROR`: workspaceName names no workspace of the organization.
             *     - `DASHBOARD_PARAM_ERROR`: params.dashboard.id is not a dashboard of the workspace that this data app embeds.
             *     - `APP_FILTER_PARAM_ERROR`: A dashboardAppFilters[].dashboardId is not a dashboard this data app embeds (an embed id sent for it included), or an appFilters[].metricId is not a metric of one.
             *     - `RLS_SETTINGS_PARAM_ERROR`: An rlsSettings[].metricId is not a metric of a dashboard this data app embeds.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    queryMetric: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "embedId": "emb_1f2e3d4c5b6a7988",
                 *       "metricId": "revenue_by_country",
                 *       "clientId": "acme",
                 *       "dashboardFilter": {
                 *         "Country": [
                 *           "DE",
                 *           "FR"
                 *         ],
                 *         "period": "Last 90 days"
                 *       },
                 *       "metricFilter": {
                 *         "status": [
                 *           "paid"
                 *         ]
                 *       },
                 *       "pageNumber": 1
                 *     }
                 */
                "application/json": {
                    embedId: string;
                    metricId: string;
                    clientId: string;
                    /** @description filter name or label (case-insensitive) → value in one of the documented filter value forms */
                    dashboardFilter?: {
                        [key: string]: unknown;
                    };
                    /** @description filter name or label (case-insensitive) → value in one of the documented filter value forms */
                    metricFilter?: {
                        [key: string]: unknown;
                    };
                    datasourceName?: string;
                    dataMartName?: string;
                    /** @description Pages of 100 rows */
                    pageNumber?: number;
                };
            };
        };
        responses: {
            /** @description The metric result. When its rows were cut at QUERY_ROW_LIMIT the answer carries the header `Strata-Truncated: true` (the body is unchanged). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            [key: string]: unknown;
                        }[];
                        /** @description milliseconds */
                        timeTaken: number;
                        /** @description metrics with a comparison: the first measure over the previous period of the first date range that applies, or, with none, as it stood at the end of the same day one month (previous-period) or one year (previous-year) ago; 0 over no rows */
                        comparisonValue?: number;
                        totalRecords: number;
                        metaData: {
                            columns: {
                                name: string;
                                dataType: string;
                            }[];
                            groupbyColumnList: string[];
                        };
                        metricid: string;
                        error: null;
                        /** @description Where the rows came from: the result cache, a rollup of the dashboard (docs/rollups.md), or the warehouse */
                        servedFrom: "cache" | "rollup" | "warehouse";
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when a filter key names no filter or a filter value does not fit its filter.
             *     - `EMBED_PARAM_ERROR`: The embed is unknown for this data app, or the metric is not in it.
             *     - `DATASOURCE_NAME_ERROR`: The datasource name does not resolve (in this workspace).
             *     - `DATAMART_NAME_ERROR`: The datamart name does not resolve in this workspace.
             *     - `DATASOURCE_CONNECTION_ERROR`: The warehouse could not be reached or refused the credentials; the message gives the driver's reason.
             *     - `QUERY_ERROR`: The warehouse rejected or failed the query; the message is the engine's own.
             *     - `QUERY_TIMEOUT`: The query ran longer than QUERY_TIMEOUT_MS and was cancelled, on the database side too.
             *     - `CLIENT_ID_ERROR`: clientId cannot select a tenant: "None" where a tenancy is configured, or no database of the datasource under DATABASE tenancy.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INVALID_DATA_APP_API_KEY`: The data app API key is missing, invalid or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listDataAppReports: {
        parameters: {
            query?: {
                embedId?: string;
                clientId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            reportId: string;
                            embedId: string;
                            name: string;
                            metricIds: string[] | null;
                            /** @description csv: one attachment per metric; png: one chart image per metric; pdf: the dashboard as one document */
                            format: "csv" | "png" | "pdf";
                            schedule: {
                                frequency: "daily" | "weekly" | "monthly";
                                /** @description HH:MM, 24-hour, in the token's params.timezone (UTC when absent) */
                                time: string;
                                /** @description weekly: 0 = Sunday … 6 = Saturday (default 1, Monday) */
                                dayOfWeek?: number;
                                /** @description monthly: 1–31 (default 1); a month without that day sends on its last day */
                                dayOfMonth?: number;
                            };
                            recipients: string[];
                            dashboardFilter: {
                                [key: string]: unknown;
                            } | null;
                            timezone: string;
                            clientId: string;
                            userIdentifier: string | null;
                            /** @description ISO 8601 instant of the next send (or retry) */
                            nextRunAt: string;
                            status: {
                                /** @description scheduled: waits for nextRunAt; retrying: the last send failed and is retried at nextRunAt; stopped: the embed was deleted or the minting key revoked, it never sends again */
                                state: "scheduled" | "retrying" | "stopped";
                                lastSentAt: string | null;
                                lastError: string | null;
                                attempts: number;
                            };
                            createdAt: string;
                        }[];
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.
             *     - `EMAIL_NOT_CONFIGURED`: The server has no SMTP_URL and EMAIL_FROM: email reports are off.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INVALID_DATA_APP_API_KEY`: The data app API key is missing, invalid or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteDataAppReport: {
        parameters: {
            query: {
                reportId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            reportId: string;
                        };
                        error: null;
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: No report with this id in this data app.
             *     - `EMAIL_NOT_CONFIGURED`: The server has no SMTP_URL and EMAIL_FROM: email reports are off.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INVALID_DATA_APP_API_KEY`: The data app API key is missing, invalid or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listRollups: {
        parameters: {
            query?: {
                /** @description With dashboardId */
                workspaceName?: string;
                /** @description The external dashboard id; with workspaceName */
                dashboardId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rollups with their state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            workspaceName: string;
                            dashboardId: string;
                            name: string;
                            /** @description building: a build runs; ready: the files match the definition (under DATABASE tenancy, lastError may name tenant databases the last build could not refresh); failed: the last build failed (lastError says why); stale: never built, or the definition changed since */
                            state: "building" | "ready" | "failed" | "stale";
                            /** @description Rows in the files */
                            rows: number;
                            /** @description Bytes of the files */
                            bytes: number;
                            /** @description Files (time partitions, per tenant database with DATABASE tenancy) */
                            partitions: number;
                            /** @description When the last build ended (ISO) */
                            lastRefreshAt: string | null;
                            /** @description When the next build is due (ISO); null: not scheduled until the definition changes */
                            nextRefreshAt: string | null;
                            /** @description How old the data in the files is: seconds since the last successful build started */
                            lagSeconds: number | null;
                            /** @description Why the last build failed; on a ready rollup under DATABASE tenancy, the tenant databases the last build could not refresh (how many, the first names, the first errors); null after a build that refreshed every part */
                            lastError: string | null;
                        }[];
                    };
                };
            };
            /** @description - `INVALID_REQUEST_BODY`: Only one of workspaceName and dashboardId, or another query parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    refreshRollups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    workspaceName: string;
                    dashboardId: string;
                    /** @description Only this rollup (default: all of the dashboard) */
                    rollup?: string;
                };
            };
        };
        responses: {
            /** @description The state of each rollup now due. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The state of each rollup now due; the build runs in the background */
                        data: {
                            workspaceName: string;
                            dashboardId: string;
                            name: string;
                            /** @description building: a build runs; ready: the files match the definition (under DATABASE tenancy, lastError may name tenant databases the last build could not refresh); failed: the last build failed (lastError says why); stale: never built, or the definition changed since */
                            state: "building" | "ready" | "failed" | "stale";
                            /** @description Rows in the files */
                            rows: number;
                            /** @description Bytes of the files */
                            bytes: number;
                            /** @description Files (time partitions, per tenant database with DATABASE tenancy) */
                            partitions: number;
                            /** @description When the last build ended (ISO) */
                            lastRefreshAt: string | null;
                            /** @description When the next build is due (ISO); null: not scheduled until the definition changes */
                            nextRefreshAt: string | null;
                            /** @description How old the data in the files is: seconds since the last successful build started */
                            lagSeconds: number | null;
                            /** @description Why the last build failed; on a ready rollup under DATABASE tenancy, the tenant databases the last build could not refresh (how many, the first names, the first errors); null after a build that refreshed every part */
                            lastError: string | null;
                        }[];
                    };
                };
            };
            /**
             * @description - `INVALID_REQUEST_BODY`: The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field. Also when the dashboard declares no rollups, or none named `rollup`.
             *     - `WORKSPACE_ID_ERROR`: workspaceName names no workspace of the organization.
             *     - `INVALID_DASHBOARD_ID`: dashboardId names no dashboard of the workspace.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `AUTHENTICATION_ERROR`: The bearer token is missing, invalid, expired or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `PAYLOAD_TOO_LARGE`: The body is larger than BODY_LIMIT (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `UNSUPPORTED_MEDIA_TYPE`: A body was sent without Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED`: Too many requests from this client in the window; the Retry-After header gives the seconds until it resets. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR`: The server failed; the cause is logged with the request id (x-request-id). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description - `SERVICE_UNAVAILABLE`: The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
}
