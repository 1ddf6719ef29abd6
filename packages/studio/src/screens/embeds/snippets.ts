/**
 * The ready-to-copy snippets of an embed, for the company's developers: the page (HTML), a
 * React component, and the backend's token mint with the Node client. The data app key is
 * always read from an environment variable: the studio never writes a key into a snippet.
 */
export interface SnippetInput {
  /** The Strata server as the browser reaches it (origin and base path). */
  readonly server: string
  readonly dataApp: string
  readonly embedId: string
  readonly embedType: 'dashboard' | 'metric'
  readonly metricId?: string | null
}

/** The element and its attributes, as HTML. */
function element(s: SnippetInput, extra: string): string {
  const tag = s.embedType === 'metric' ? 'strata-metric' : 'strata-dashboard'
  const metric = s.embedType === 'metric' && s.metricId ? ` metric-id="${attr(s.metricId)}"` : ''
  return `<${tag} id="strata-embed" embed-id="${attr(s.embedId)}"${metric}${extra}></${tag}>`
}

export function htmlSnippet(s: SnippetInput): string {
  return `<script type="module" src="${s.server}/sdk/strata-embed.js"></script>

${element(s, '')}

<script type="module">
  // Your backend's route answers { token }: a guest token it minted for the signed-in user
  // (see the Node snippet). Never put the data app key in a page.
  const res = await fetch('/api/strata-token', { method: 'POST' })
  const { token } = await res.json()
  document.getElementById('strata-embed').token = token
</script>`
}

export function reactSnippet(s: SnippetInput): string {
  const tag = s.embedType === 'metric' ? 'strata-metric' : 'strata-dashboard'
  const metric = s.embedType === 'metric' && s.metricId ? ` metric-id="${attr(s.metricId)}"` : ''
  return `// Load the element once, e.g. in index.html:
// <script type="module" src="${s.server}/sdk/strata-embed.js"></script>
import { useEffect, useRef } from 'react'

export function StrataEmbed() {
  const ref = useRef(null)
  useEffect(() => {
    let live = true
    fetch('/api/strata-token', { method: 'POST' }) // your backend (see the Node snippet)
      .then((res) => res.json())
      .then(({ token }) => {
        if (live && ref.current) ref.current.token = token // a property: no reload
      })
    return () => {
      live = false
    }
  }, [])
  return <${tag} ref={ref} embed-id="${attr(s.embedId)}"${metric} />
}`
}

export function nodeSnippet(s: SnippetInput): string {
  return `// Server side only. npm install @strata/node (see its README)
import { Strata } from '@strata/node'

const strata = new Strata({
  baseUrl: '${s.server}',
  apiKey: process.env.STRATA_DATA_APP_KEY, // the data app key (sk_…): keep it in your secrets
})

/** A guest token for one signed-in user; clientId is their tenant. Answer it from /api/strata-token. */
export async function strataToken(clientId) {
  const { token } = await strata.guestTokens.create({ dataAppName: '${js(s.dataApp)}', clientId })
  return token
}`
}

const attr = (v: string): string =>
  v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const js = (v: string): string => v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")
