import type { RuntimeClient } from '../api/client.js'
import type { LayoutItem, SavedView } from '../api/types.js'

/**
 * The layout and views calls of the self-serve runtime API (docs/runtime-api.md#the-end-users-layout), through the element's
 * client (its token, its expiry handling). Each answers what the server returns, unwrapped.
 */

/** PUT /layout: this tenant's (or user's) layout from now on; answers it as saved. */
export async function saveLayout(
  client: RuntimeClient,
  layout: readonly LayoutItem[],
  signal?: AbortSignal,
): Promise<LayoutItem[]> {
  const body = await client.call<{ data: { layout: LayoutItem[] } }>('PUT', '/layout', { layout }, signal)
  return body.data.layout
}

/** DELETE /layout: back to the company's layout (with this tenant's metrics appended); answers it. */
export async function resetLayout(client: RuntimeClient, signal?: AbortSignal): Promise<LayoutItem[]> {
  const body = await client.call<{ data: { layout: LayoutItem[] } }>('DELETE', '/layout', undefined, signal)
  return body.data.layout
}

/** GET /views: the saved views of this tenant (or user). */
export async function listViews(client: RuntimeClient, signal?: AbortSignal): Promise<SavedView[]> {
  const body = await client.call<{ data: SavedView[] }>('GET', '/views', undefined, signal)
  return body.data
}

export interface NewView {
  readonly name: string
  readonly filters: Readonly<Record<string, unknown>>
  readonly layout?: readonly LayoutItem[]
}

/** POST /views: saves a view; answers its id and name. */
export async function createView(
  client: RuntimeClient,
  view: NewView,
  signal?: AbortSignal,
): Promise<{ viewId: string; name: string }> {
  const body = await client.call<{ data: { viewId: string; name: string } }>('POST', '/views', view, signal)
  return body.data
}

/** DELETE /views/:viewId. */
export async function deleteView(client: RuntimeClient, viewId: string, signal?: AbortSignal): Promise<void> {
  await client.call<unknown>('DELETE', `/views/${encodeURIComponent(viewId)}`, undefined, signal)
}
