import PDFDocument from 'pdfkit'
import SVGtoPDF from 'svg-to-pdfkit'
import type { CardSvg } from './card.js'
import { reportFonts } from './fonts.js'

/** A4 portrait, in PDF points. */
const PAGE = { width: 595.28, height: 841.89 }
const MARGIN = 40
export const PDF_CONTENT_WIDTH = Math.floor(PAGE.width - 2 * MARGIN)
const GAP = 14

export interface PdfCard {
  readonly name: string
  readonly card: CardSvg
}

/**
 * The dashboard as a PDF: the report's title and when it was made, then each metric's card (the
 * same SVG as its PNG, drawn as vectors with svg-to-pdfkit, text kept as text in DejaVu Sans),
 * a new page whenever the next card does not fit. Each card is a bookmark under its metric's name.
 */
export async function cardsToPdf(title: string, subtitle: string, cards: readonly PdfCard[]): Promise<Buffer> {
  const fonts = reportFonts()
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: title, Creator: 'Strata' } })
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve())
    doc.on('error', reject)
  })
  doc.registerFont('report', fonts.regular)
  doc.registerFont('report-bold', fonts.bold)
  doc.font('report-bold').fontSize(20).fillColor('#111827').text(title, MARGIN, MARGIN, { width: PDF_CONTENT_WIDTH })
  doc.font('report').fontSize(10).fillColor('#6b7280').text(subtitle, { width: PDF_CONTENT_WIDTH })
  let y = doc.y + GAP
  for (const { name, card } of cards) {
    // a card taller than a page is scaled down to fit one
    const scale = Math.min(1, PDF_CONTENT_WIDTH / card.width, (PAGE.height - 2 * MARGIN) / card.height)
    const width = card.width * scale
    const height = card.height * scale
    if (y + height > PAGE.height - MARGIN) {
      doc.addPage()
      y = MARGIN
    }
    doc.outline.addItem(name)
    SVGtoPDF(doc as unknown as typeof PDFDocument, sized(card.svg, width, height), MARGIN, y, {
      width,
      height,
      assumePt: true,
      fontCallback: (_family, bold) => (bold ? 'report-bold' : 'report'),
    })
    y += height + GAP
  }
  doc.end()
  await done
  return Buffer.concat(chunks)
}

/** The SVG drawn `width` × `height` (its root's size; the viewBox keeps its drawing whole): svg-to-pdfkit sizes by these. */
function sized(svg: string, width: number, height: number): string {
  return svg.replace(/^<svg\b([^>]*?) width="[^"]*" height="[^"]*"/, `<svg$1 width="${width}" height="${height}"`)
}
