/**
 * The lookup body a dialer sends, read straight from its bytes: `{"numbers":["2125550100", …]}` (any key order,
 * whitespace, plus `suppression_type` and `container_id`). For 1,000 numbers JSON.parse and the schema cost more
 * than the rest of the request, so the common shape is scanned here without making a string per entry; anything
 * else (an escape, a non-ASCII character, an unknown key, an out-of-range value) answers null and the caller
 * parses the body with JSON.parse and the zod schema instead, which give the same result and the same errors.
 * Pure: no I/O.
 */

export interface ScannedLookupBody {
  /** Entries in order: token bytes [starts[i], ends[i]) of `bytes`, as they are in JSON (quotes included). */
  count: number;
  starts: Uint32Array;
  ends: Uint32Array;
  /** 1 where the entry is a JSON string, 0 for an integer. */
  quoted: Uint8Array;
  suppressionType: string | undefined;
  /** undefined: absent; null: sent as null. */
  containerId: number | null | undefined;
}

const WS = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0a, 0x0d]) WS[c] = 1;

/** Longest string entry the schema accepts (characters; the fast path takes ASCII only, one byte each). */
const MAX_ENTRY = 40;
/** Digits of an integer entry this path takes (below Number.MAX_SAFE_INTEGER); longer ones go to the schema. */
const MAX_INT_DIGITS = 15;

export function scanLookupBody(b: Uint8Array, maxEntries: number, suppressionTypes: readonly string[]): ScannedLookupBody | null {
  const n = b.length;
  let i = 0;
  const ws = () => {
    while (i < n && WS[b[i]]) i++;
  };
  /** A plain string token at i (printable ASCII, no escape): [start, end) with quotes, or -1. */
  const plainString = (max: number): number => {
    if (b[i] !== 0x22) return -1;
    const s = i;
    let k = i + 1;
    while (k < n) {
      const c = b[k];
      if (c === 0x22) break;
      if (c < 0x20 || c > 0x7e || c === 0x5c) return -1;
      k++;
    }
    if (k >= n || k - s - 1 > max) return -1;
    i = k + 1;
    return s;
  };
  /** A JSON integer without sign or leading zero at i: its end, or -1. */
  const integer = (): number => {
    const s = i;
    while (i < n && b[i] >= 0x30 && b[i] <= 0x39) i++;
    const len = i - s;
    if (len === 0 || len > MAX_INT_DIGITS || (len > 1 && b[s] === 0x30)) return -1;
    const c = b[i];
    if (c === 0x2e || c === 0x65 || c === 0x45) return -1; // a fraction or exponent: the schema decides
    return i;
  };
  const keyIs = (s: number, e: number, name: string): boolean => {
    if (e - s - 2 !== name.length) return false;
    for (let k = 0; k < name.length; k++) if (b[s + 1 + k] !== name.charCodeAt(k)) return false;
    return true;
  };

  ws();
  if (b[i++] !== 0x7b) return null; // {
  let starts: Uint32Array | null = null;
  let ends: Uint32Array | null = null;
  let quoted: Uint8Array | null = null;
  let count = 0;
  let suppressionType: string | undefined;
  let containerId: number | null | undefined;
  let seenType = false;
  let seenContainer = false;
  ws();
  if (b[i] === 0x7d) return null; // {}: the schema names what is missing
  for (;;) {
    ws();
    const ks = i;
    if (plainString(32) < 0) return null;
    const ke = i;
    ws();
    if (b[i++] !== 0x3a) return null; // :
    ws();
    if (keyIs(ks, ke, "numbers") && !starts) {
      if (b[i++] !== 0x5b) return null; // [
      starts = new Uint32Array(maxEntries);
      ends = new Uint32Array(maxEntries);
      quoted = new Uint8Array(maxEntries);
      ws();
      if (b[i] === 0x5d) return null; // []: the schema's message
      for (;;) {
        ws();
        if (count === maxEntries) return null; // too many: the schema's message
        const s = i;
        if (b[i] === 0x22) {
          if (plainString(MAX_ENTRY) < 0) return null;
          quoted[count] = 1;
        } else if (integer() < 0) return null;
        starts[count] = s;
        ends[count] = i;
        count++;
        ws();
        const c = b[i++];
        if (c === 0x5d) break; // ]
        if (c !== 0x2c) return null; // ,
      }
    } else if (keyIs(ks, ke, "suppression_type") && !seenType) {
      seenType = true;
      const s = i;
      if (plainString(64) < 0) return null;
      const name = String.fromCharCode(...b.subarray(s + 1, i - 1));
      if (!suppressionTypes.includes(name)) return null;
      suppressionType = name;
    } else if (keyIs(ks, ke, "container_id") && !seenContainer) {
      seenContainer = true;
      if (b[i] === 0x6e) {
        if (b[i + 1] !== 0x75 || b[i + 2] !== 0x6c || b[i + 3] !== 0x6c) return null;
        i += 4;
        containerId = null;
      } else {
        const s = i;
        if (integer() < 0) return null;
        const v = Number(String.fromCharCode(...b.subarray(s, i)));
        if (v < 1 || v > 2_147_483_647) return null;
        containerId = v;
      }
    } else return null; // another key, or one twice: JSON.parse and the schema decide
    ws();
    const c = b[i++];
    if (c === 0x7d) break; // }
    if (c !== 0x2c) return null;
  }
  ws();
  if (i !== n || !starts || !ends || !quoted) return null;
  return { count, starts, ends, quoted, suppressionType, containerId };
}
