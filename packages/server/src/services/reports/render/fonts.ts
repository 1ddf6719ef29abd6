import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The font reports draw text with. The web component's theme names Inter and system fonts, which a
 * server seldom has; resvg falls back to this family for them (and for `sans-serif`), and the PDF
 * embeds its files. DejaVu Sans is Debian's fonts-dejavu-core (`.ci/run` installs it when missing),
 * looked for where Debian, Alpine, Arch and Fedora put it.
 */
export const REPORT_FONT_FAMILY = 'DejaVu Sans'

const DIRS = [
  '/usr/share/fonts/truetype/dejavu',
  '/usr/share/fonts/dejavu',
  '/usr/share/fonts/TTF',
  '/usr/share/fonts/dejavu-sans-fonts',
  '/usr/local/share/fonts',
]

export interface ReportFonts {
  readonly regular: string
  readonly bold: string
}

let found: ReportFonts | undefined

/** The regular and bold DejaVu Sans files; throws, naming the package, when the machine has none. */
export function reportFonts(): ReportFonts {
  if (found) return found
  for (const dir of DIRS) {
    const regular = join(dir, 'DejaVuSans.ttf')
    const bold = join(dir, 'DejaVuSans-Bold.ttf')
    if (existsSync(regular) && existsSync(bold)) {
      found = { regular, bold }
      return found
    }
  }
  throw new Error(
    `reports need the DejaVu Sans font (Debian: apt-get install fonts-dejavu-core); looked in ${DIRS.join(', ')}`,
  )
}
