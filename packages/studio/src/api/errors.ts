/** A failed call: the API's code and message, and a sentence that names the fix. */
export class StudioError extends Error {
  /** The request field the API named (`credentials.port`, `relationships[0].joinType`), if any. */
  readonly field: string | undefined

  constructor(
    readonly code: string,
    readonly status: number,
    readonly apiMessage: string,
    field?: string,
  ) {
    super(explain(code, apiMessage))
    this.field = field ?? fieldOf(apiMessage)
  }
}

/** The field a validation message starts with: `credentials.port must …`, `relationships[1].childColumn: no …`. */
function fieldOf(message: string): string | undefined {
  return /^((?:credentials|relationships|tableList)(?:\.[A-Za-z_][\w]*|\[\d+\])*)[: ]/.exec(message)?.[1]
}

/** What to do about each error the studio's calls can meet; the API's own message follows. */
const FIXES: Record<string, string> = {
  USER_NOT_FOUND: 'No admin account has this email. Check the address, or ask whoever set up this server.',
  INVALID_CREDENTIALS: 'The password is not right. Type it again (it is case-sensitive).',
  INVALID_REQUEST: 'The admin account exists already: sign in with it instead.',
  AUTHENTICATION_ERROR: 'Your session has ended. Sign in again to go on.',
  DATASOURCE_CONNECTION_ERROR:
    'Strata could not connect with these details. Check the host, port, user and password, and that the database accepts connections from the Strata server.',
  DATASOURCE_NOT_SUPPORTED: 'This server cannot connect to this type of database yet. Pick another type.',
  DATASOURCE_NAME_ERROR: 'There is no datasource of that name. Pick one from the list, or add it first.',
  INVALID_DATASOURCE_NAME: 'There is no datasource of that name any more. Reload the list.',
  DATASOURCE_ID_ERROR: 'There is no datasource of that name any more. Reload the list.',
  DATA_APP_ALREADY_EXISTS: 'A data app has this name already. Pick another name.',
  QUERY_ERROR: 'The database answered with an error while Strata read its tables. Check the user may read them.',
  RATE_LIMIT_EXCEEDED: 'Too many attempts in a short time. Wait a minute, then try again.',
  SELFHOSTED_APP_ERROR: 'This server is not self-hosted: the admin account is managed elsewhere.',
  INVALID_REQUEST_BODY: 'Something in the form is not right. Correct the field named below and save again.',
  NETWORK: 'The Strata server did not answer. Check that it is running and reachable, then try again.',
}

export function explain(code: string, message: string): string {
  const fix = FIXES[code] ?? 'The server refused this. The reason is below.'
  return message ? `${fix} (${message})` : fix
}
