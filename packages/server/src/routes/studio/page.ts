/** The studio's one HTML page: loads the studio module and mounts `<strata-studio>`. */
export function studioPage(options: { readonly basePath: string; readonly version: string }): string {
  const base = escapeAttr(options.basePath)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Strata studio</title>
<script type="module" src="${base}/studio/studio.js?v=${escapeAttr(options.version)}"></script>
</head>
<body>
<strata-studio base="${base}"></strata-studio>
<noscript>The Strata studio needs JavaScript.</noscript>
</body>
</html>
`
}

const escapeAttr = (s: string): string =>
  s.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
