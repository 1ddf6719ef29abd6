const html = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  )

/** The /demo page: two tenants of one embed, side by side, each with its own guest token. */
export function demoPage(input: {
  basePath: string
  embedId: string
  tokens: readonly { tenant: string; token: string }[]
}): string {
  const base = html(input.basePath)
  // Only the first panel mirrors its filters into the page URL: two panels would fight over it.
  const panels = input.tokens
    .map(
      ({ tenant, token }, i) => `
      <section class="tenant" aria-label="Tenant ${html(tenant)}">
        <header><span class="badge">${html(tenant)}</span><span class="hint">clientId = "${html(tenant)}"</span></header>
        <strata-dashboard data-tenant="${html(tenant)}" embed-id="${html(input.embedId)}" base-url="${base || ''}"
          token="${html(token)}"${i > 0 ? ` options='{"syncUrl":false}'` : ''}></strata-dashboard>
      </section>`,
    )
    .join('')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Strata — embedded analytics demo</title>
<style>
  :root { color-scheme: light; font-family: Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; background: #f4f6fb; color: #1b2333; }
  .top { display: flex; align-items: center; gap: 16px; padding: 18px 28px; background: #111a2e; color: #fff; }
  .top h1 { font-size: 18px; margin: 0; font-weight: 650; letter-spacing: .2px; }
  .top p { margin: 0; color: #aab4c8; font-size: 14px; }
  main { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(560px, 100%), 1fr)); gap: 24px; padding: 24px 28px; }
  .tenant { min-width: 0; }
  .tenant header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 10px; margin: 0 0 10px; }
  .hint { overflow-wrap: anywhere; }
  @media (max-width: 600px) {
    .top { flex-direction: column; align-items: flex-start; gap: 6px; padding: 14px 16px; }
    main { gap: 16px; padding: 16px 12px; }
  }
  .badge { background: #3b5bdb; color: #fff; border-radius: 999px; padding: 3px 12px; font-weight: 600; font-size: 13px; }
  .hint { color: #66718a; font-size: 13px; font-family: ui-monospace, monospace; }
</style>
<script type="module" src="${base}/sdk/strata-embed.js"></script>
</head>
<body>
  <div class="top">
    <h1>Strata</h1>
    <p>One dashboard, two tenants: each panel is the same embed with a guest token minted server-side for its clientId. Neither can see the other’s rows.</p>
  </div>
  <main>${panels}
  </main>
  <script type="module">
    // A real host page would call its own backend; the demo's backend is /demo/token.
    for (const el of document.querySelectorAll('strata-dashboard')) {
      el.addEventListener('strata-token-expired', async () => {
        const res = await fetch('${base}/demo/token?tenant=' + encodeURIComponent(el.dataset.tenant))
        if (res.ok) el.token = (await res.json()).token
      })
    }
  </script>
</body>
</html>`
}
