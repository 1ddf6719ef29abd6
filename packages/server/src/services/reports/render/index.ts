import type { RuntimeMetric } from '@strata/contract/runtime'
import { ApiError } from '../../../errors.js'
import type { MetricResult } from '../../query/metric-queries.js'

export interface RenderInput {
  readonly title: string
  readonly timezone: string
  readonly items: readonly { readonly metric: RuntimeMetric; readonly result: MetricResult }[]
  readonly format: 'png' | 'pdf'
}

export interface RenderedFile {
  readonly filename: string
  readonly contentType: string
  readonly content: Buffer
}

/**
 * Charts of a report as PNG images (one per metric) or one PDF of the dashboard. PLACEHOLDER:
 * the rendering is built apart (branch `render`) and replaces this file; until then png and
 * pdf reports are saved but their sends fail (400 on send-now, visibly in the status when scheduled).
 */
export async function renderReport(input: RenderInput): Promise<RenderedFile[]> {
  throw new ApiError(
    'EMAIL_REPORT_FORMAT_UNAVAILABLE',
    400,
    `format: ${input.format} reports are not available on this server yet; use csv`,
  )
}
