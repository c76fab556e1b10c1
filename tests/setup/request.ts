/** Builds a Request as the browser would send it, with optional cookie and form body. */
export function makeRequest(path: string, opts: { method?: string; cookie?: string; form?: Record<string, string> } = {}): Request {
  const headers = new Headers();
  if (opts.cookie) headers.set("Cookie", opts.cookie);
  let body: BodyInit | undefined;
  if (opts.form) {
    body = new URLSearchParams(opts.form);
    headers.set("Content-Type", "application/x-www-form-urlencoded");
  }
  return new Request(`http://localhost${path}`, { method: opts.method ?? (opts.form ? "POST" : "GET"), headers, body });
}

/** The cookie pair (name=value) from a Set-Cookie header, for the next request. */
export function cookieFrom(res: Response): string {
  const set = res.headers.get("Set-Cookie");
  if (!set) throw new Error("no Set-Cookie");
  return set.split(";")[0];
}

export const testContext = { clientIp: "127.0.0.1", requestId: "test" };
