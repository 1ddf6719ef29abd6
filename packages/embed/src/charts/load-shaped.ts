/**
 * The chart types with a shape (combo, scatter, funnel, pivot, trend) come in a chunk of their own:
 * their builders, their HTML and the ECharts series they draw with. The element asks for it when a
 * card of one of those types has data to show; the card keeps its skeleton until then.
 */
let loading: Promise<void> | undefined

export function loadShapedCharts(): Promise<void> {
  loading ??= import('../shaped-charts.js').then(
    () => undefined,
    (e: unknown) => {
      loading = undefined
      throw e
    },
  )
  return loading
}
