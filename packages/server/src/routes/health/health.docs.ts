import { operations } from '../../schemas/openapi.js'

/** Liveness and readiness probes: no token, not rate limited. */
export const docs = operations('health', {
  getLiveness: {
    summary: 'Liveness: the process answers',
    description:
      'Answers `{ status: "live" }` as long as the process serves requests; it checks no dependency. No token, not rate limited. Under `BASE_PATH` when one is set.',
  },
  getReadiness: {
    summary: 'Readiness: 200 when every configured dependency is UP, else 503',
    description:
      'Checks the metadata store and, when configured, Redis (3 s each). 200 with `status: "ready"` when every check is `UP`; 503 with `status: "not_ready"` and the failing check otherwise. While the server drains after SIGTERM it answers 503 `SERVICE_UNAVAILABLE` instead. No token, not rate limited.',
    returns: 'Every configured check is UP.',
  },
})
