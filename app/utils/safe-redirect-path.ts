const PROBE_ORIGIN = "http://same-origin.invalid";
const MAX_LENGTH = 2048;

/**
 * The one check for every redirect target that comes from input (redirectTo, return links): a path that,
 * after the WHATWG URL parser's own normalisation (which drops tabs and newlines, turns `\` into `/` and
 * resolves dot segments), still names this origin. Returns the parser's serialisation (control characters
 * percent-encoded, so a Location header can never be invalid) or the fallback. Never throws.
 */
export function safeRedirectPath(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.length > MAX_LENGTH) return fallback;
  let url: URL;
  try {
    url = new URL(to, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // "/.//evil" normalises to the path "//evil", which a browser reads as another host.
  if (path.startsWith("//") || path.startsWith("/\\")) return fallback;
  return path;
}
