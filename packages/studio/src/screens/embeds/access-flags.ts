/**
 * The access settings an embed grants to everyone who loads it, each with the sentence the
 * studio shows next to its switch. A guest token's permissions can only narrow them.
 * Required on create: every flag without `optional` (the server names a missing one).
 */
export interface AccessFlag {
  readonly field: string
  readonly label: string
  readonly explains: string
  readonly optional?: boolean
  /** The value a new embed starts with. */
  readonly initial: boolean
}

export const ACCESS_FLAGS: readonly AccessFlag[] = [
  {
    field: 'isAllowEndUserDashboardFilter',
    label: 'Change the dashboard filters',
    explains:
      'End users can pick filter values (dates, regions …). Off: the filters are read-only and show what your backend set.',
    optional: true,
    initial: true,
  },
  {
    field: 'isAllowUnderlyingData',
    label: 'See the underlying data and download it',
    explains:
      'End users can open the rows behind a chart and download them as CSV, always limited to their own tenant.',
    initial: false,
  },
  {
    field: 'isAllowMetricLayoutChange',
    label: 'Rearrange the dashboard',
    explains: 'End users can move and resize the cards; their layout is saved for them only.',
    initial: false,
  },
  {
    field: 'isAllowMetricCreation',
    label: 'Build their own metrics (self-serve)',
    explains: 'End users get the builder to make new charts on your datamart, over their own rows only.',
    initial: false,
  },
  {
    field: 'isAllowMetricUpdate',
    label: 'Edit metrics',
    explains: 'End users can change a metric’s chart, measures and filters.',
    initial: false,
  },
  {
    field: 'isAllowMetricDeletion',
    label: 'Delete and hide metrics',
    explains: 'End users can delete the metrics they made and hide your metrics from their tenant.',
    initial: false,
  },
  {
    field: 'isAllowManageMetrics',
    label: 'Publish and archive metrics',
    explains: 'End users can share a metric with everyone of their tenant, or archive it.',
    initial: false,
  },
  {
    field: 'isAllowCreateDashboardView',
    label: 'Save dashboard views',
    explains: 'End users can save a set of filter values as a named view to come back to.',
    initial: false,
  },
  {
    field: 'isAllowEmailReports',
    label: 'Schedule email reports',
    explains: 'End users can have the dashboard sent by email on a schedule.',
    initial: false,
  },
  {
    field: 'isAllowAiPilot',
    label: 'Ask the AI pilot',
    explains:
      'End users can ask questions in plain words and get a metric back (needs an AI model configured on the server).',
    optional: true,
    initial: false,
  },
]

/** How end users create metrics, when they may. */
export const CREATION_MODES = [
  { value: 'DRAG_DROP', label: 'Builder (drag and drop)' },
  { value: 'CHAT', label: 'AI pilot chat' },
] as const
