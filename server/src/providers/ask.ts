/**
 * An outside provider's JSON answer at `url` (the weather's, the epidemic page's), or undefined when it has none
 * within `timeoutMs`, answers with another status than 2xx, or answers what is not JSON: callers then say the
 * feature is unavailable, never fail the request.
 */
export async function askProvider(get: typeof fetch, url: string | URL, timeoutMs: number): Promise<unknown> {
  try {
    const res = await get(url, { signal: AbortSignal.timeout(timeoutMs) });
    return res.ok ? await res.json() : undefined;
  } catch {
    return undefined;
  }
}
