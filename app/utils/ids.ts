/** Identifier formats shared by server and browser. */

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An upload's id (and a staged upload's token): 32 lower-case hex characters. */
export const UPLOAD_ID_RE = /^[a-f0-9]{32}$/;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID_RE.test(value);
}
