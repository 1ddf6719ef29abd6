/**
 * The admin's session. The access token (a short-lived JWT) lives only in memory; the refresh
 * token lives in sessionStorage: the API answers it in the body (no cookie), sessionStorage is
 * per tab and cleared when the tab closes, and a reload can then resume without a new sign-in.
 * Nothing is ever written to localStorage.
 */
export interface SessionTokens {
  readonly accessToken: string
  readonly refreshToken: string
  /** Seconds the access token is valid for. */
  readonly expiresIn: number
}

const REFRESH_KEY = 'strata.studio.refresh'
/** Refresh this long before the access token ends (or at half its life, when shorter). */
const MARGIN_MS = 60_000

export class Session {
  private access: string | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  private refreshing: Promise<boolean> | undefined

  constructor(
    private readonly refreshCall: (refreshToken: string) => Promise<SessionTokens>,
    /** Called when the session ends without the admin asking (the refresh was refused). */
    private readonly onExpired: () => void,
  ) {}

  get accessToken(): string | undefined {
    return this.access
  }

  get canResume(): boolean {
    return sessionStorage.getItem(REFRESH_KEY) !== null
  }

  start(tokens: SessionTokens): void {
    this.access = tokens.accessToken
    sessionStorage.setItem(REFRESH_KEY, tokens.refreshToken)
    clearTimeout(this.timer)
    const lifeMs = tokens.expiresIn * 1000
    const delay = Math.max(1000, Math.min(lifeMs - MARGIN_MS, lifeMs / 2))
    this.timer = setTimeout(() => void this.refresh(), delay)
  }

  /** Trades the refresh token for a new session; false (and the session ended) when refused. */
  refresh(): Promise<boolean> {
    this.refreshing ??= this.doRefresh().finally(() => {
      this.refreshing = undefined
    })
    return this.refreshing
  }

  end(): void {
    clearTimeout(this.timer)
    this.access = undefined
    sessionStorage.removeItem(REFRESH_KEY)
  }

  private async doRefresh(): Promise<boolean> {
    const token = sessionStorage.getItem(REFRESH_KEY)
    if (token === null) return false
    try {
      this.start(await this.refreshCall(token))
      return true
    } catch {
      this.end()
      this.onExpired()
      return false
    }
  }
}
