// The chart series imported from their own modules, not from the `echarts/charts` barrel: esbuild
// assigns files to chunks by which entry points reach them, and through the barrel the entry reaches
// every series, so the scatter and funnel (used by the lazily loaded chunk only) went up front.
type Installer = Extract<Parameters<typeof import('echarts/core').use>[0], (...args: never[]) => unknown>

declare module 'echarts/lib/chart/funnel/install.js' {
  export const install: Installer
}
declare module 'echarts/lib/chart/scatter/install.js' {
  export const install: Installer
}
declare module 'echarts/lib/chart/bar/install.js' {
  export const install: Installer
}
declare module 'echarts/lib/chart/line/install.js' {
  export const install: Installer
}
declare module 'echarts/lib/chart/pie/install.js' {
  export const install: Installer
}
