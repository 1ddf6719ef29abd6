/** An origin as the whitelist takes it: host[:port] or *.host[:port], no scheme, no path. */
const ORIGIN = /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?$/

/** Why an entry is not an origin, in a sentence that says what to type instead; '' when it is one. */
export function originProblem(value: string): string {
  const v = value.trim()
  if (!v) return 'Type an origin, e.g. app.example.com or localhost:3000.'
  if (/^[a-z]+:\/\//i.test(v))
    return `Leave out the scheme: type ${v.replace(/^[a-z]+:\/\//i, '').split('/')[0]} without http:// or https://.`
  if (v.includes('/')) return `An origin has no path: type ${v.split('/')[0]} only.`
  if (!ORIGIN.test(v))
    return 'That is not a host name: letters, digits, dots and dashes, an optional :port, or *. in front for every subdomain.'
  return ''
}
