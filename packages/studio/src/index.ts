import { StudioApp } from './app.js'
import { StudioAuth } from './screens/auth.js'
import { StudioDashboard } from './screens/dashboard-editor.js'
import { StudioDashboardFilters } from './screens/dashboard-filters.js'
import { StudioDashboardPreview } from './screens/dashboard-preview.js'
import { StudioDashboards } from './screens/dashboards.js'
import { StudioDataAppDetail } from './screens/data-app-detail.js'
import { StudioDataApps } from './screens/data-apps.js'
import { StudioDatamartForm } from './screens/datamart-form.js'
import { StudioDatamarts } from './screens/datamarts.js'
import { StudioDatasourceDetail } from './screens/datasource-detail.js'
import { StudioDatasourceForm } from './screens/datasource-form.js'
import { StudioDatasources } from './screens/datasources.js'
import { StudioEmbedDetail } from './screens/embeds/embed-detail.js'
import { StudioEmbedForm } from './screens/embeds/embed-form.js'
import { StudioEmbeds } from './screens/embeds/embeds.js'
import { StudioSqlMetric } from './screens/sql-metric.js'
import { StudioWorkspaces } from './screens/workspaces.js'
import { dashboardStyles } from './ui/dashboard-styles.js'
import { StudioEmbedView } from './ui/embed-view.js'
import { studioStyles } from './ui/styles.js'
import { StudioTenantInput } from './ui/tenant-input.js'

/** The studio's entry: the document adopts the one stylesheet, then the elements are defined. */
const ELEMENTS: Record<string, CustomElementConstructor> = {
  'strata-studio': StudioApp,
  'studio-auth': StudioAuth,
  'studio-datasources': StudioDatasources,
  'studio-datasource-form': StudioDatasourceForm,
  'studio-datasource-detail': StudioDatasourceDetail,
  'studio-datamarts': StudioDatamarts,
  'studio-datamart-form': StudioDatamartForm,
  'studio-workspaces': StudioWorkspaces,
  'studio-data-apps': StudioDataApps,
  'studio-dashboards': StudioDashboards,
  'studio-dashboard': StudioDashboard,
  'studio-dashboard-filters': StudioDashboardFilters,
  'studio-sql-metric': StudioSqlMetric,
  'studio-dashboard-preview': StudioDashboardPreview,
  'studio-embed-view': StudioEmbedView,
  'studio-data-app': StudioDataAppDetail,
  'studio-embeds': StudioEmbeds,
  'studio-embed-form': StudioEmbedForm,
  'studio-embed-detail': StudioEmbedDetail,
  'studio-tenant-input': StudioTenantInput,
}

const sheets = [studioStyles, dashboardStyles].flatMap((s) => (s.styleSheet ? [s.styleSheet] : []))
document.adoptedStyleSheets = [...document.adoptedStyleSheets, ...sheets]
for (const [tag, element] of Object.entries(ELEMENTS)) {
  if (!customElements.get(tag)) customElements.define(tag, element)
}
