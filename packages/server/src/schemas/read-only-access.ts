/**
 * The fields accessSettings must carry on create (datamartName too, for dashboard embeds), each
 * with its most restrictive value: what an embed grants when nothing more is asked for.
 *
 * A module of its own, importing nothing, so that the CLI (src/cli.ts) can print and send it
 * without loading TypeBox: the schema library alone is most of a `strata` command's start-up.
 * schemas/embeds.ts checks these names against the accessSettings schema.
 */
export const READ_ONLY_ACCESS = {
  isAllowEmailReports: false,
  isAllowManageMetrics: false,
  isAllowCreateDashboardView: false,
  isAllowMetricCreation: false,
  isAllowMetricDeletion: false,
  isAllowMetricLayoutChange: false,
  isAllowMetricUpdate: false,
  isAllowUnderlyingData: false,
  metricCreationMode: 'DRAG_DROP',
} as const
