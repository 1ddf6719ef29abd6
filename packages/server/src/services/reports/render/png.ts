import { renderAsync } from '@resvg/resvg-js'
import { REPORT_FONT_FAMILY, reportFonts } from './fonts.js'

/** PNGs are drawn at twice the SVG's size, sharp on high-density screens and when zoomed. */
export const PNG_SCALE = 2

/**
 * An SVG document as a PNG (resvg). Only the report font's files are loaded (not every system
 * font, which costs a scan per render); every family the SVG names, the theme's Inter and
 * `sans-serif` among them, falls back to it. Drawn on libuv's thread pool (renderAsync), not the event loop.
 */
export async function svgToPng(svg: string, scale = PNG_SCALE): Promise<Buffer> {
  const fonts = reportFonts()
  const image = await renderAsync(svg, {
    fitTo: { mode: 'zoom', value: scale },
    font: {
      loadSystemFonts: false,
      fontFiles: [fonts.regular, fonts.bold],
      defaultFontFamily: REPORT_FONT_FAMILY,
      sansSerifFamily: REPORT_FONT_FAMILY,
    },
  })
  return image.asPng()
}
