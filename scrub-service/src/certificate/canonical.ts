/**
 * Canonical JSON: object keys sorted by code unit, no undefined, integers and strings only where numbers
 * and text appear. The same value always gives the same bytes, so a signature over them can be checked
 * by anyone who re-serializes the parsed value (decision 110).
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function write(value: Json, indent: string, depth: number): string {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError("Canonical JSON holds finite numbers only.");
    return JSON.stringify(value);
  }
  if (typeof value === "string") return JSON.stringify(value);
  const nl = indent ? "\n" + indent.repeat(depth + 1) : "";
  const end = indent ? "\n" + indent.repeat(depth) : "";
  const sep = indent ? ": " : ":";
  if (Array.isArray(value)) {
    if (!value.length) return "[]";
    return "[" + value.map((v) => nl + write(v, indent, depth + 1)).join(",") + end + "]";
  }
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort();
  if (!keys.length) return "{}";
  return "{" + keys.map((k) => nl + JSON.stringify(k) + sep + write(value[k], indent, depth + 1)).join(",") + end + "}";
}

/** The signed form: compact. */
export function canonicalJson(value: Json): string {
  return write(value, "", 0);
}

/** The file form: the same order, two-space indented, ending in a newline (readable, still one spelling). */
export function canonicalJsonFile(value: Json): string {
  return write(value, "  ", 0) + "\n";
}
