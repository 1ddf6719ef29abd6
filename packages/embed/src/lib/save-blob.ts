/** Saves a Blob as a file through a temporary `<a download>` (placed in `root`, removed at once). */
export function saveBlob(blob: Blob, filename: string, root: Node): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = filename
  a.hidden = true
  root.appendChild(a)
  a.click()
  a.remove()
  // Revoked later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
