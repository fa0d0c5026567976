/// <reference lib="dom" />
/**
 * QuestDB's console server session: once signed in, the console's first query carries
 * `&session=true`, and the server answers with the `qdb_session` cookie (HttpOnly, SameSite=Strict),
 * which stands for the credentials on requests that carry no `Authorization` header — a plain
 * `/exp` link, a download opened in a new tab. Sign-out ends it with `session=false` (QuestDB's
 * console sends `select 2&session=false` with `keepalive`).
 */

/** The `/exec` URL of `query` that also starts (true) or ends (false) the server session. */
export function withSession(query: string, start: boolean): string {
  return `exec?${new URLSearchParams({ query, session: String(start) }).toString()}`
}

/**
 * Ends the server session: `session=false` with the sign-in's header (so it works even when the
 * cookie's session has already expired) and `keepalive` (it outlives a page that is leaving).
 * Never throws; resolves once the server answered or the request failed.
 */
export async function endServerSession(authorization: string | undefined): Promise<void> {
  try {
    const res = await fetch(withSession('select 2', false), { keepalive: true, headers: authorization === undefined ? {} : { Authorization: authorization } })
    await res.body?.cancel()
  } catch { /* the page is leaving, or the server is gone: the session ends by timeout */ }
}
