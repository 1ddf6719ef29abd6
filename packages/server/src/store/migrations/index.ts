import type { Migration } from 'kysely'
import { foundation } from './001-foundation.js'
import { analytics } from './002-analytics.js'
import { endUserMetrics } from './003-end-user-metrics.js'
import { layoutsAndViews } from './004-layouts-and-views.js'
import { emailReports } from './005-email-reports.js'
import { tenantCopyBase } from './006-tenant-copy-base.js'
import { dashboardMetadata } from './007-dashboard-metadata.js'
import { silentTls } from './008-silent-tls.js'
import { rollups } from './009-rollups.js'
import { dashboardsUpdated } from './010-dashboards-updated.js'

/** Every migration, in order. Names are permanent: never rename or reorder one that shipped. */
export const migrations: Record<string, Migration> = {
  '001-foundation': foundation,
  '002-analytics': analytics,
  '003-end-user-metrics': endUserMetrics,
  '004-layouts-and-views': layoutsAndViews,
  '005-email-reports': emailReports,
  '006-tenant-copy-base': tenantCopyBase,
  '007-dashboard-metadata': dashboardMetadata,
  '008-silent-tls': silentTls,
  '009-rollups': rollups,
  '010-dashboards-updated': dashboardsUpdated,
}
