export const SIDEBAR_COOKIE = "sidebar:state";
export const SIDEBAR_MAX_AGE = 60 * 60 * 24 * 7;

/** Expanded unless the cookie says "false". */
export function readSidebarExpanded(request: Request): boolean {
  const header = request.headers.get("Cookie") ?? "";
  for (const part of header.split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === SIDEBAR_COOKIE) return value !== "false";
  }
  return true;
}

export function sidebarCookie(expanded: boolean): string {
  return `${SIDEBAR_COOKIE}=${expanded}; Path=/; Max-Age=${SIDEBAR_MAX_AGE}; SameSite=Lax`;
}
