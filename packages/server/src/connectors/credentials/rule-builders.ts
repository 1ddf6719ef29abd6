/**
 * The building blocks of the credentials' conditional rules (what a JSON Schema of the fields
 * alone does not say): a rule states itself in `doc` lines, which docs/datasources.md renders
 * under the type's field table, and `check`s the validated credentials. Each type's rule is in
 * its folder's `credentials.ts` and its registry row (`rules`); the rules several types share are
 * here.
 */
import { parseJsonText } from '../../validation/json-text.js'
import { type TlsFields, tlsFieldProblem } from '../shared/tls.js'

/** A broken rule: the message is `credentials.<field> <problem>`. */
export interface Violation {
  readonly field: string
  readonly problem: string
}

/** A conditional rule over the credentials `C` of a type. */
export interface CredentialRule<C> {
  readonly doc: readonly string[]
  readonly check: (credentials: C) => Violation | undefined
}

/** The TLS fields of the TCP types (docs/datasources.md#tls). */
export const tlsRule: CredentialRule<TlsFields> = {
  doc: [
    '`tlsCaCertificate` and `tlsClientCertificate` must be PEM certificates and `tlsClientKey` an unencrypted PEM private key; a client certificate needs its key and the reverse.',
  ],
  check: (c) => tlsFieldProblem(c),
}

/** The CA field of the HTTP types. */
export const caRule: CredentialRule<TlsFields> = {
  doc: ['`tlsCaCertificate`, when given, must hold PEM certificates.'],
  check: (c) => tlsFieldProblem(c),
}

/** Both rules: the first's violation, else the second's; their docs in order. */
export function both<C>(first: CredentialRule<C>, second: CredentialRule<C>): CredentialRule<C> {
  return { doc: [...first.doc, ...second.doc], check: (c) => first.check(c) ?? second.check(c) }
}

/** An endpoint override (docs/datasources.md#fields-that-need-a-word): an http(s):// URL, when given. */
export const httpEndpoint = (field: string, value: string | undefined): Violation | undefined =>
  value === undefined || /^https?:\/\/[^/]/i.test(value)
    ? undefined
    : { field, problem: 'must be an http:// or https:// URL' }

/** A JSON object in text, read by the parser of request bodies (depth, no prototype-poisoning key). */
export function isJsonObject(text: string): boolean {
  const parsed = parseJsonText(text)
  return 'value' in parsed && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value)
}
