import { describe, expect, it } from 'vitest'
import { defaultBaseUrl, normalizeBaseUrl } from '../src/lib/base-url.js'
import { parseOptions } from '../src/lib/options.js'
import { DEFAULT_CHART_THEME, parseTheme, resolveChartTheme, splitPalette, themeToCssVars } from '../src/lib/theme.js'

describe('parseTheme', () => {
  it('reads the JSON attribute and the object property alike', () => {
    const theme = {
      colors: {
        background: '#000',
        surface: '#111',
        text: '#fff',
        muted: '#aaa',
        primary: 'rebeccapurple',
        border: '#333',
      },
      font: 'Roboto, sans-serif',
      radius: 6,
      palette: ['#f00', 'rgb(0, 128, 0)'],
    }
    expect(parseTheme(JSON.stringify(theme))).toEqual(theme)
    expect(parseTheme(theme)).toEqual(theme)
  })
  it('drops what is invalid or unsafe, keeps the rest', () => {
    expect(parseTheme('{not json')).toEqual({})
    expect(parseTheme('[1,2]')).toEqual({})
    expect(parseTheme(null)).toEqual({})
    expect(
      parseTheme({
        colors: { text: 'red; background: url(x)', primary: '#123456', surface: 42, unknown: '#fff' },
        font: '}body{',
        radius: -1,
        palette: ['#abc', 'url(javascript:1)', 7],
      }),
    ).toEqual({ colors: { primary: '#123456' }, palette: ['#abc'] })
  })
})

describe('themeToCssVars', () => {
  it('maps to --strata-* custom properties', () => {
    expect(
      themeToCssVars({ colors: { primary: '#f00', border: '#eee' }, font: 'Inter', radius: 4, palette: ['#a', '#b'] }),
    ).toEqual({
      '--strata-color-primary': '#f00',
      '--strata-color-border': '#eee',
      '--strata-font': 'Inter',
      '--strata-radius': '4px',
      '--strata-palette': '#a, #b',
    })
    expect(themeToCssVars({ radius: '1rem' })).toEqual({ '--strata-radius': '1rem' })
    expect(themeToCssVars({})).toEqual({})
  })
})

describe('resolveChartTheme', () => {
  it('prefers the theme, then the page CSS variables, then defaults', () => {
    const css: Record<string, string> = { '--strata-color-text': ' #222 ', '--strata-palette': 'rgb(1, 2, 3), #456' }
    const read = (name: string) => css[name] ?? ''
    expect(resolveChartTheme({}, () => '')).toEqual(DEFAULT_CHART_THEME)
    const t = resolveChartTheme({ colors: { muted: '#999' } }, read)
    expect(t.text).toBe('#222')
    expect(t.muted).toBe('#999')
    expect(t.palette).toEqual(['rgb(1, 2, 3)', '#456'])
    expect(resolveChartTheme({ palette: ['#f00'] }, read).palette).toEqual(['#f00'])
  })
  it('splits palettes without breaking colour functions', () => {
    expect(splitPalette('hsl(10 20% 30%), rgb(1,2,3) ,#fff,')).toEqual(['hsl(10 20% 30%)', 'rgb(1,2,3)', '#fff'])
  })
})

describe('parseOptions', () => {
  it('keeps the known, valid options', () => {
    expect(parseOptions('{"height":400,"showFilters":false,"locale":"de-DE","rowHeight":90,"syncUrl":false}')).toEqual({
      height: '400px',
      showFilters: false,
      locale: 'de-DE',
      rowHeight: 90,
      syncUrl: false,
    })
    expect(parseOptions({ height: '60vh' })).toEqual({ height: '60vh' })
  })
  it('drops the rest', () => {
    expect(parseOptions('nope')).toEqual({})
    expect(parseOptions({ height: 'calc(1px); color: red', locale: '<x>', rowHeight: 5, showFilters: 'yes' })).toEqual(
      {},
    )
  })
})

describe('base URL', () => {
  it('defaults to the origin the module came from', () => {
    expect(defaultBaseUrl('https://strata.example.com/sdk/strata-embed.js', 'https://app.example.com')).toBe(
      'https://strata.example.com',
    )
  })
  it('falls back to the page when the module has no http origin', () => {
    expect(defaultBaseUrl('blob:https://app/1', 'https://app.example.com')).toBe('https://app.example.com')
    expect(defaultBaseUrl(undefined, 'https://app.example.com')).toBe('https://app.example.com')
    expect(defaultBaseUrl('file:///x.js', 'http://localhost:3000')).toBe('http://localhost:3000')
  })
  it('normalizes the attribute', () => {
    expect(normalizeBaseUrl('https://strata.example.com/')).toBe('https://strata.example.com')
    expect(normalizeBaseUrl('https://example.com/strata/?x=1')).toBe('https://example.com/strata')
    expect(normalizeBaseUrl('/strata', 'https://app.example.com/page')).toBe('https://app.example.com/strata')
    expect(normalizeBaseUrl('javascript:alert(1)')).toBe('')
    expect(normalizeBaseUrl('not a url')).toBe('')
  })
})
