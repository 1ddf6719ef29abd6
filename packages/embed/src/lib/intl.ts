/**
 * An Intl formatter constructor, memoised per locale and options (constructing one costs far
 * more than formatting). A locale the runtime does not know falls back to the default one.
 */
export function cachedIntl<O extends object, F>(
  make: (locale: string | undefined, options: O) => F,
): (locale: string | undefined, options: O) => F {
  const made = new Map<string, F>()
  return (locale, options) => {
    const key = `${locale ?? ''}|${JSON.stringify(options)}`
    let f = made.get(key)
    if (f === undefined) {
      try {
        f = make(locale, options)
      } catch {
        f = make(undefined, options)
      }
      made.set(key, f)
    }
    return f
  }
}
