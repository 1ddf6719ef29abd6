import { BlockList, isIP } from 'node:net'
import type { FastifyRequest } from 'fastify'
import type { Subnet } from '../../../config.js'

/** Whether a peer is a trusted proxy (TRUST_PROXY); anything that is not an IP address is not. */
export type ProxyTrust = (address: string | undefined) => boolean

export function proxyTrust(subnets: readonly Subnet[]): ProxyTrust {
  const list = new BlockList()
  for (const { address, prefix, family } of subnets) list.addSubnet(address, prefix, family)
  return (address) => {
    const family = address === undefined ? 0 : isIP(address)
    if (address === undefined || family === 0) return false
    try {
      return list.check(address, family === 4 ? 'ipv4' : 'ipv6')
    } catch {
      return false
    }
  }
}

const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/
const BRACKETED_IPV6 = /^\[([^\]]+)\](?::\d{1,5})?$/
const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i

/**
 * An address as a counter key, or undefined when the value is not an IP address: a port some
 * proxies append is dropped, and an IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function normalizeAddress(value: string | undefined): string | undefined {
  let address = value?.trim()
  if (!address) return undefined
  address = IPV4_WITH_PORT.exec(address)?.[1] ?? BRACKETED_IPV6.exec(address)?.[1] ?? address
  address = IPV4_MAPPED.exec(address)?.[1] ?? address
  return isIP(address) === 0 ? undefined : address.toLowerCase()
}

function lastValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.at(-1) : header
  return value?.split(',').at(-1)
}

/**
 * The client the rate limits count (docs/operations.md#rate-limits): `X-Client-IP`, then `X-Forwarded-For`, then the socket —
 * the headers only when the peer is a trusted proxy. `request.ip` is Fastify's reading of
 * `X-Forwarded-For` with the same trust (`trustProxy` in app.ts): walking from the socket back
 * through the trusted hops, the first untrusted address, so an address a client wrote into the
 * header itself is never taken. `X-Client-IP` is one address set by the proxy; if it arrives as
 * a list, the last (the one the nearest proxy appended) counts.
 */
export function clientKey(request: FastifyRequest, trusts: ProxyTrust): string {
  const peer = request.socket?.remoteAddress
  if (trusts(peer)) {
    const given = normalizeAddress(lastValue(request.headers['x-client-ip']))
    if (given) return given
  }
  return normalizeAddress(request.ip) ?? normalizeAddress(peer) ?? 'unknown'
}

/**
 * `clientKey`, remembered per connection where it cannot change: when the peer is not a trusted
 * proxy, the key is the socket's own address, the same for every request on a kept-alive
 * connection, so the rate limiter's per-request work is a lookup. From a trusted proxy the
 * headers name the client, request by request, and are read each time.
 */
export function clientKeys(trusts: ProxyTrust): (request: FastifyRequest) => string {
  const bySocket = new WeakMap<object, string>()
  return (request) => {
    const socket = request.socket
    if (socket === undefined || socket === null) return clientKey(request, trusts)
    const known = bySocket.get(socket)
    if (known !== undefined) return known
    const key = clientKey(request, trusts)
    if (!trusts(socket.remoteAddress)) bySocket.set(socket, key)
    return key
  }
}
