/**
 * Which measures and dimensions the chart types that need a particular shape of result take
 * (docs/dashboard-document.md, "Chart types"). One rule for both packages: the server refuses a
 * document whose chart does not fit its query (a 400 naming the field), and the builder offers such
 * a chart only where the fields fit, saying why otherwise. TypeBox-free, so the web component's
 * bundle can import it.
 */

/** The chart types this rule covers (the others take any result and fall back to a table). */
export const SHAPED_CHART_TYPES = ['combo', 'scatter', 'funnel', 'pivot', 'trend'] as const
export type ShapedChartType = (typeof SHAPED_CHART_TYPES)[number]

export const isShapedChart = (type: string): type is ShapedChartType =>
  (SHAPED_CHART_TYPES as readonly string[]).includes(type)

/** What a query metric gives a chart: its measures' names and its dimensions. */
export interface ChartFields {
  readonly measures: readonly string[]
  readonly dimensions: readonly { readonly name: string; readonly timeGrain?: string | undefined }[]
}

/** The chart options the rule reads (beyond `type`); any other key is left alone. */
export interface ShapedChart {
  readonly type: string
  readonly y?: readonly string[] | undefined
  readonly [option: string]: unknown
}

export interface ChartMisfit {
  /** Where the problem is, relative to the metric: `query.measures`, `chart.line`, … */
  readonly field: string
  /** A sentence an end user can read, starting with the chart's name. */
  readonly message: string
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

/** Why `chart` cannot show a query with these fields (null: it can, or the type takes any shape). */
export function chartMisfit(chart: ShapedChart, fields: ChartFields): ChartMisfit | null {
  const measures = fields.measures.length
  const dims = fields.dimensions.length
  const dimensionNames = fields.dimensions.map((d) => d.name)
  const has = `this one has ${plural(measures, 'measure')} and ${plural(dims, 'dimension')}`
  const option = (key: string): string | undefined =>
    typeof chart[key] === 'string' ? (chart[key] as string) : undefined
  const shown = chart.y && chart.y.length > 0 ? chart.y : fields.measures
  switch (chart.type) {
    case 'combo': {
      if (measures < 2)
        return {
          field: 'query.measures',
          message: `A combo chart needs at least two measures (bars and a line); ${has}.`,
        }
      if (dims !== 1)
        return {
          field: 'query.dimensions',
          message: `A combo chart needs exactly one dimension for its x axis; ${has}.`,
        }
      const line = option('line')
      if (chart.line !== undefined && (line === undefined || !shown.includes(line)))
        return {
          field: 'chart.line',
          message: `A combo chart's line must be one of its measures (${shown.join(', ')}).`,
        }
      if (shown.length < 2)
        return { field: 'chart.y', message: 'A combo chart shows at least two measures: bars and a line.' }
      return null
    }
    case 'scatter': {
      if (measures < 2)
        return { field: 'query.measures', message: `A scatter chart needs two measures, one for each axis; ${has}.` }
      if (chart.y && chart.y.length !== 2)
        return { field: 'chart.y', message: 'A scatter chart plots exactly two measures: x, then y.' }
      if (dims > 2)
        return {
          field: 'query.dimensions',
          message: `A scatter chart takes at most two dimensions (the points, and a series to colour them); ${has}.`,
        }
      const by = option('seriesBy')
      if (chart.seriesBy !== undefined && (by === undefined || !dimensionNames.includes(by)))
        return { field: 'chart.seriesBy', message: 'A scatter chart is coloured by one of its dimensions.' }
      return null
    }
    case 'funnel':
      return measures === 1 && dims === 1
        ? null
        : {
            field: measures === 1 ? 'query.dimensions' : 'query.measures',
            message: `A funnel needs one dimension (its stages) and one measure; ${has}.`,
          }
    case 'pivot': {
      if (dims < 2)
        return {
          field: 'query.dimensions',
          message: `A pivot table needs two dimensions or more (rows and columns); ${has}.`,
        }
      if (measures < 1) return { field: 'query.measures', message: `A pivot table needs at least one measure; ${has}.` }
      const columns = option('columns')
      if (chart.columns !== undefined && (columns === undefined || !dimensionNames.includes(columns)))
        return { field: 'chart.columns', message: 'A pivot table spreads one of its dimensions across its columns.' }
      return null
    }
    case 'trend':
      if (measures < 1) return { field: 'query.measures', message: `A number with trend needs a measure; ${has}.` }
      return dims === 1 && fields.dimensions[0]?.timeGrain !== undefined
        ? null
        : {
            field: 'query.dimensions',
            message: `A number with trend needs exactly one dimension, a date with a time grain, for its trend line; ${has}.`,
          }
    default:
      return null
  }
}
