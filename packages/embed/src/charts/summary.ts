import { formatNumber } from '../lib/numbers.js'

interface Series {
  readonly name: string
  readonly data: readonly (number | null)[]
  /** The column's own format (the document's `formats`), else plain numbers. */
  readonly format?: (v: number) => string
}

const MAX_SERIES = 3

/** "Line chart: Revenue. 12 points by month. revenue from 1,200 (2024-01) to 5,400 (2024-12); highest …" */
export function cartesianSummary(
  kind: string,
  title: string,
  x: string | undefined,
  categories: readonly string[],
  series: readonly Series[],
  locale?: string,
): string {
  const plain = (v: number) => formatNumber(v, { locale })
  const parts = [
    `${kind}: ${title}. ${categories.length} ${categories.length === 1 ? 'point' : 'points'}${x ? ` by ${x}` : ''}.`,
  ]
  for (const s of series.slice(0, MAX_SERIES)) {
    const n = s.format ?? plain
    const points = s.data
      .map((v, i) => ({ v, label: categories[i] ?? '' }))
      .filter((p): p is { v: number; label: string } => p.v !== null)
    if (points.length === 0) continue
    const first = points[0]!
    const last = points[points.length - 1]!
    const max = points.reduce((a, b) => (b.v > a.v ? b : a))
    const min = points.reduce((a, b) => (b.v < a.v ? b : a))
    parts.push(
      points.length === 1
        ? `${s.name}: ${n(first.v)} (${first.label}).`
        : `${s.name} from ${n(first.v)} (${first.label}) to ${n(last.v)} (${last.label}); highest ${n(max.v)} (${max.label}), lowest ${n(min.v)} (${min.label}).`,
    )
  }
  if (series.length > MAX_SERIES) parts.push(`And ${series.length - MAX_SERIES} more series.`)
  return parts.join(' ')
}

/** "Pie chart: Revenue by country. 4 slices of revenue. Largest: DE 45% (4,500), FR 30% (3,000), …" */
export function pieSummary(
  kind: string,
  title: string,
  measure: string | undefined,
  data: readonly { name: string; value: number }[],
  locale?: string,
  format: (v: number) => string = (v) => formatNumber(v, { locale }),
): string {
  const total = data.reduce((sum, d) => sum + Math.max(0, d.value), 0)
  const top = [...data]
    .sort((a, b) => b.value - a.value)
    .slice(0, 3)
    .map(
      (d) =>
        `${d.name} ${total > 0 ? formatNumber((d.value / total) * 100, { locale, decimals: 1 }) : '0'}% (${format(d.value)})`,
    )
  const head = `${kind}: ${title}. ${data.length} ${data.length === 1 ? 'slice' : 'slices'}${measure ? ` of ${measure}` : ''}.`
  return top.length ? `${head} Largest: ${top.join(', ')}.` : head
}
