// <strata-dashboard> in React 18 or 19. Illustrative source: drop it into any React app (Vite, Next.js client
// component, …) that has `@strata/embed` installed, or load /sdk/strata-embed.js with a <script type="module">.
//
// Objects (theme, options) and the token go in as *properties* through a ref, events come out through
// addEventListener: this works the same in React 18 (which would stringify objects into attributes and
// ignores custom events) and React 19.
import '@strata/embed' // defines <strata-dashboard> and <strata-metric> (safe to import more than once)
import { useCallback, useEffect, useRef, useState } from 'react'

/** Asks *your* backend for a guest token; it mints one with the data app key (see README.md). */
async function fetchGuestToken() {
  const res = await fetch('/api/strata-token', { method: 'POST', credentials: 'include' })
  if (!res.ok) throw new Error(`Could not get a Strata token (${res.status})`)
  const { token } = await res.json()
  return token
}

/** A thin React wrapper: props in, callbacks out. */
export function StrataDashboard({
  token,
  embedId,
  metricId,
  baseUrl,
  theme,
  options,
  onReady,
  onError,
  onFilterChange,
  onTokenExpired,
  style,
}) {
  const ref = useRef(null)

  // Properties, not attributes: objects stay objects, and a new token is picked up without a reload.
  useEffect(() => {
    ref.current.token = token ?? ''
  }, [token])
  useEffect(() => {
    ref.current.theme = theme
  }, [theme])
  useEffect(() => {
    ref.current.options = options
  }, [options])

  // Events: bubbling, composed CustomEvents with a typed `detail`.
  useEffect(() => {
    const el = ref.current
    const handlers = {
      'strata-ready': onReady,
      'strata-error': onError,
      'strata-filter-change': onFilterChange,
      'strata-token-expired': onTokenExpired,
    }
    const bound = Object.entries(handlers)
      .filter(([, handler]) => handler)
      .map(([type, handler]) => {
        const listener = (event) => handler(event.detail, event)
        el.addEventListener(type, listener)
        return () => el.removeEventListener(type, listener)
      })
    return () => {
      for (const unbind of bound) unbind()
    }
  }, [onReady, onError, onFilterChange, onTokenExpired])

  // Plain strings can stay attributes (React 18 writes them as attributes; React 19 as properties, same result).
  return (
    <strata-dashboard
      ref={ref}
      embed-id={embedId}
      {...(metricId ? { 'metric-id': metricId } : {})}
      {...(baseUrl ? { 'base-url': baseUrl } : {})}
      style={style}
    />
  )
}

const theme = {
  colors: { primary: '#7c3aed', background: '#fafafa' },
  radius: 12,
  palette: ['#7c3aed', '#06b6d4', '#f59e0b', '#10b981'],
}
const options = { locale: 'en-US', showFilters: true }

export default function App() {
  const [token, setToken] = useState('')
  const [filters, setFilters] = useState({})
  const [error, setError] = useState(null)

  useEffect(() => {
    fetchGuestToken().then(setToken, setError)
  }, [])

  // The element waits (keeping filters and charts) until it gets a new token, then retries.
  const refresh = useCallback(() => {
    fetchGuestToken().then(setToken, setError)
  }, [])
  const onError = useCallback((detail) => setError(new Error(`${detail.code}: ${detail.message}`)), [])
  const onFilterChange = useCallback((detail) => setFilters(detail.filters), [])

  return (
    <main style={{ maxWidth: 1280, margin: '0 auto', padding: 24 }}>
      <h1>Analytics</h1>
      {error && <p role="alert">{error.message}</p>}
      <StrataDashboard
        token={token}
        embedId="sales-overview"
        theme={theme}
        options={options}
        onTokenExpired={refresh}
        onError={onError}
        onFilterChange={onFilterChange}
      />
      <pre>{JSON.stringify(filters, null, 2)}</pre>
    </main>
  )
}
