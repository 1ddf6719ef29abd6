import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as chartOptions from '@strata/embed/chart-options'
import { describe, expect, it, vi } from 'vitest'
import type { MetricResult } from '../../query/metric-queries.js'
import { renderReport } from './index.js'

// The embed's builder, wrapped: it is called as it is, and its option then gets a label of ours,
// so the report can only show that label if it draws what the embed's module built.
vi.mock('@strata/embed/chart-options', async (original) => {
  const embed = await original<typeof chartOptions>()
  return {
    ...embed,
    buildVisual: vi.fn((...args: Parameters<typeof embed.buildVisual>) => {
      const visual = embed.buildVisual(...args)
      if (visual.kind !== 'echarts') return visual
      const xAxis = visual.option.xAxis as { data: string[] }
      return {
        ...visual,
        option: { ...visual.option, xAxis: { ...xAxis, data: xAxis.data.map((l) => `${l} via embed`) } },
      }
    }),
  }
})

const metric = {
  metricId: 'bar',
  name: 'Revenue by month',
  chart: { type: 'bar', x: 'month', y: ['revenue'] },
  origin: 'company',
  isPublished: true,
  visibility: 'shared',
  createdByUser: null,
} as chartOptions.RuntimeMetric
const result = {
  data: [
    { month: '2024-01-01', revenue: 10 },
    { month: '2024-02-01', revenue: 12 },
  ],
  timeTaken: 1,
  totalRecords: 2,
  metaData: {
    columns: [
      { name: 'month', dataType: 'date' },
      { name: 'revenue', dataType: 'number' },
    ],
    groupbyColumnList: ['month'],
  },
  metricid: 'bar',
  error: null,
  servedFrom: 'warehouse',
} as MetricResult

const hasPoppler = spawnSync('pdftotext', ['-v']).status === 0

describe('renderReport draws the embed’s buildVisual', () => {
  it('calls it with the metric, the result and the web component’s default theme, and draws its option', async () => {
    const [pdf] = await renderReport({ title: 'Sales', timezone: 'UTC', items: [{ metric, result }], format: 'pdf' })
    const build = vi.mocked(chartOptions.buildVisual)
    expect(build).toHaveBeenCalledTimes(1)
    const [m, r, ctx] = build.mock.calls[0] ?? []
    expect([m, r]).toEqual([metric, result])
    expect(ctx?.theme.palette).toEqual(chartOptions.DEFAULT_CHART_THEME.palette)
    expect(ctx?.theme.text).toBe(chartOptions.DEFAULT_CHART_THEME.text)
    if (!hasPoppler) {
      if (process.env.CI === 'true') throw new Error('pdftotext (poppler-utils) is missing; CI=true requires it')
      console.warn('\n  ⚠ SKIPPING the PDF text check: pdftotext (poppler-utils) is not installed\n')
      return
    }
    const file = join(mkdtempSync(join(tmpdir(), 'strata-report-')), 'report.pdf')
    writeFileSync(file, pdf?.content as Buffer)
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })
    expect(text).toContain('Jan 2024 via embed')
    expect(text).toContain('Feb 2024 via embed')
  })
})
