import { html } from 'lit'

/**
 * The drill-down controls' style, carried by the lazily loaded module (the entry bundle holds
 * none of it). Written once per template that needs it; the browser dedupes identical sheets.
 */
export const drillStyles = html`<style>
  .drill-menu{position:fixed;z-index:40;width:260px;max-width:calc(100vw - 16px);padding:4px;border:1px solid var(--_border);border-radius:var(--_radius,8px);background:var(--_surface);color:var(--_text);box-shadow:0 8px 24px rgb(0 0 0 / .16);font:inherit;font-size:13px}
  .drill-menu-title{padding:6px 10px 4px;color:var(--_muted);font-size:12px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
  .drill-menu [role=menuitem]{display:flex;align-items:center;width:100%;min-height:40px;padding:0 10px;border:0;border-radius:6px;background:none;color:inherit;font:inherit;text-align:left;cursor:pointer}
  .drill-menu [role=menuitem]:hover,.drill-menu [role=menuitem]:focus-visible{background:color-mix(in srgb,var(--_primary) 12%,transparent);outline:none}
  .drill-menu [role=menuitem]:focus-visible{box-shadow:inset 0 0 0 2px var(--_primary)}
  .drill-chips{display:flex;flex-wrap:wrap;align-items:center;gap:6px;padding:0 0 10px}
  .drill-chips-label{color:var(--_muted);font-size:12px}
  .drill-chip{display:inline-flex;align-items:center;gap:6px;max-width:100%;min-height:32px;padding:2px 10px;border:1px solid color-mix(in srgb,var(--_primary) 40%,var(--_border));border-radius:999px;background:color-mix(in srgb,var(--_primary) 10%,var(--_surface));color:inherit;font:inherit;font-size:13px;cursor:pointer}
  .drill-chip>span:first-child{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
  .drill-chip:focus-visible,.drill-trail button:focus-visible{outline:2px solid var(--_primary);outline-offset:1px}
  .drill-trail{display:flex;align-items:center;justify-content:space-between;gap:8px;margin:0 0 2px;padding:0 16px 0 10px;font-size:12px;color:var(--_muted)}
  .drill-trail ol{display:flex;flex-wrap:wrap;align-items:center;gap:2px;margin:0;padding:0;list-style:none;min-width:0}
  .drill-trail li{display:inline-flex;align-items:center;gap:2px}
  .drill-trail button{min-height:28px;padding:0 6px;border:0;border-radius:4px;background:none;color:var(--_primary);font:inherit;text-decoration:underline;cursor:pointer}
  .drill-trail [aria-current]{padding:0 6px;color:var(--_text);font-weight:600}
  .drill-trail .hint{white-space:nowrap}
  @media (max-width:480px){.drill-trail .hint{display:none}}
  @media (pointer:coarse),(max-width:599px){.drill-menu [role=menuitem],.drill-chip,.drill-trail button,.drill-trail [aria-current]{min-height:44px}.drill-trail [aria-current]{display:inline-flex;align-items:center}}
</style>`
