/**
 * A cell's text as Excel shows it, from its stored value and number format (pure, no I/O). Dates and times
 * follow the format's tokens; numbers keep every digit and never turn into E-notation (a phone number stored
 * as the number 2125550100 is "2125550100", also under a scientific or "General" format); digit-placeholder
 * formats such as Excel's "Phone Number" `[<=9999999]###-####;(###) ###-####` are applied.
 */

/** Excel's built-in number formats (ECMA-376 18.8.30) that differ from General. */
export const BUILTIN_FORMATS: Record<number, string> = {
  1: "0",
  2: "0.00",
  3: "#,##0",
  4: "#,##0.00",
  9: "0%",
  10: "0.00%",
  11: "0.00E+00",
  12: "# ?/?",
  13: "# ??/??",
  14: "m/d/yyyy",
  15: "d-mmm-yy",
  16: "d-mmm",
  17: "mmm-yy",
  18: "h:mm AM/PM",
  19: "h:mm:ss AM/PM",
  20: "h:mm",
  21: "h:mm:ss",
  22: "m/d/yyyy h:mm",
  37: "#,##0 ;(#,##0)",
  38: "#,##0 ;(#,##0)",
  39: "#,##0.00;(#,##0.00)",
  40: "#,##0.00;(#,##0.00)",
  45: "mm:ss",
  46: "[h]:mm:ss",
  47: "mm:ss.0",
  48: "##0.0E+0",
  49: "@",
};

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** Splits a format into sections at `;` outside quotes and brackets. */
function sections(format: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  let bracket = false;
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    if (c === "\\" && !quoted) {
      cur += c + (format[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "[") bracket = true;
    else if (!quoted && c === "]") bracket = false;
    if (c === ";" && !quoted && !bracket) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/** The format without quoted text, escapes and brackets: what decides whether it is a date. */
function bare(section: string): string {
  return section
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/_./g, "")
    .replace(/\*./g, "");
}

export function isDateFormat(format: string): boolean {
  const b = bare(sections(format)[0]);
  return /[dmyhs]/i.test(b) && !/[0#?]/.test(b.replace(/s+\.0+/gi, ""));
}

function condition(section: string): ((v: number) => boolean) | null {
  const m = /\[(<=|>=|<>|<|>|=)(-?\d+(?:\.\d+)?)\]/.exec(section);
  if (!m) return null;
  const n = Number(m[2]);
  const ops: Record<string, (v: number) => boolean> = {
    "<=": (v) => v <= n,
    ">=": (v) => v >= n,
    "<>": (v) => v !== n,
    "<": (v) => v < n,
    ">": (v) => v > n,
    "=": (v) => v === n,
  };
  return ops[m[1]];
}

/** Picks the section for a value (conditions first, then Excel's positive;negative;zero order). */
function pick(format: string, v: number): { section: string; abs: boolean } {
  const s = sections(format);
  if (s.some((x) => condition(x))) {
    for (const x of s) {
      const c = condition(x);
      if (!c || c(v)) return { section: x, abs: false };
    }
    return { section: s[s.length - 1], abs: false };
  }
  if (v < 0 && s.length > 1) return { section: s[1], abs: true };
  if (v === 0 && s.length > 2) return { section: s[2], abs: false };
  return { section: s[0], abs: false };
}

/** The plain decimal text of a number: all digits, no E-notation, no float noise (15 significant digits). */
export function plainNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v) && Math.abs(v) < Number.MAX_SAFE_INTEGER) return String(v);
  const s = Number(v.toPrecision(15)).toString();
  if (!/e/i.test(s)) return s;
  return Number(v.toPrecision(15)).toLocaleString("en-US", { useGrouping: false, maximumFractionDigits: 20 });
}

/** Excel serial day → a UTC date (1900 system with its 29 Feb 1900, or the 1904 system). */
function serialDate(serial: number, date1904: boolean): Date {
  let days = serial;
  if (!date1904 && days < 60) days += 1; // before Excel's fictitious 29 Feb 1900
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  return new Date(epoch + Math.round(days * 86400000));
}

function pad(n: number, w: number): string {
  return String(n).padStart(w, "0");
}

function formatDate(section: string, serial: number, date1904: boolean): string {
  const d = serialDate(serial, date1904);
  const elapsed = /\[h+\]/i.test(section);
  const ampm = /AM\/PM|A\/P/i.test(section);
  let out = "";
  let lastWasHour = false;
  const src = section.replace(/\[(?!h+\]|m+\]|s+\])[^\]]*\]/gi, "");
  for (let i = 0; i < src.length;) {
    const rest = src.slice(i);
    const c = src[i];
    if (c === '"') {
      const j = src.indexOf('"', i + 1);
      out += src.slice(i + 1, j < 0 ? undefined : j);
      i = j < 0 ? src.length : j + 1;
      continue;
    }
    if (c === "\\") {
      out += src[i + 1] ?? "";
      i += 2;
      continue;
    }
    if (c === "_" || c === "*") {
      i += 2;
      continue;
    }
    let m: RegExpExecArray | null;
    if ((m = /^\[h+\]/i.exec(rest))) {
      out += String(Math.floor(serial * 24));
      lastWasHour = true;
      i += m[0].length;
      continue;
    }
    if ((m = /^(AM\/PM|A\/P)/i.exec(rest))) {
      const pm = d.getUTCHours() >= 12;
      out += m[0].length === 5 ? (pm ? "PM" : "AM") : pm ? "P" : "A";
      i += m[0].length;
      continue;
    }
    if ((m = /^y+/i.exec(rest))) {
      out += m[0].length <= 2 ? pad(d.getUTCFullYear() % 100, 2) : String(d.getUTCFullYear());
      i += m[0].length;
      continue;
    }
    if ((m = /^d+/i.exec(rest))) {
      const n = m[0].length;
      out += n === 1 ? String(d.getUTCDate()) : n === 2 ? pad(d.getUTCDate(), 2) : n === 3 ? DAYS[d.getUTCDay()].slice(0, 3) : DAYS[d.getUTCDay()];
      lastWasHour = false;
      i += n;
      continue;
    }
    if ((m = /^h+/i.exec(rest))) {
      let h = d.getUTCHours();
      if (ampm) h = h % 12 || 12;
      out += m[0].length >= 2 ? pad(h, 2) : String(h);
      lastWasHour = true;
      i += m[0].length;
      continue;
    }
    if ((m = /^m+/i.exec(rest))) {
      const n = m[0].length;
      const next = rest.slice(n).replace(/^[^a-z]*/i, "");
      const minutes = n <= 2 && (lastWasHour || /^s/i.test(next));
      if (minutes) out += n === 2 ? pad(d.getUTCMinutes(), 2) : String(d.getUTCMinutes());
      else {
        const mo = d.getUTCMonth();
        out += n === 1 ? String(mo + 1) : n === 2 ? pad(mo + 1, 2) : n === 3 ? MONTHS[mo].slice(0, 3) : n === 5 ? MONTHS[mo][0] : MONTHS[mo];
      }
      lastWasHour = false;
      i += n;
      continue;
    }
    if ((m = /^s+(\.0+)?/i.exec(rest))) {
      const secs = d.getUTCSeconds() + d.getUTCMilliseconds() / 1000;
      const frac = m[1] ? m[1].length - 1 : 0;
      out += frac ? secs.toFixed(frac).padStart(frac + 3, "0") : pad(Math.floor(secs), m[0].length >= 2 ? 2 : 1);
      i += m[0].length;
      continue;
    }
    if (elapsed && c === "[") {
      i = src.indexOf("]", i) + 1;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** Literal text of a number format part (quotes, escapes, plain characters; placeholders dropped). */
function literal(part: string): string {
  return part
    .replace(/\[[^\]]*\]/g, "")
    .replace(/_./g, " ")
    .replace(/\*./g, "")
    .replace(/"([^"]*)"|\\(.)/g, (_, q, e) => q ?? e);
}

/**
 * A number under a format made of digit placeholders (0 # ?), `.`, `,` and `%`. Formats whose integer part
 * interleaves placeholders with literal text (a phone-number format) place the digits right to left.
 */
function formatNumber(section: string, v: number): string {
  // drop quoted text from the analysis, but keep it for output
  const plain = section.replace(/"[^"]*"|\\./g, (x) => "\u0000".repeat(x.length));
  const first = plain.search(/[0#?]/);
  if (first < 0) return literal(section) || plainNumber(v);
  let last = first;
  for (let i = first; i < plain.length; i++) if (/[0#?.,%]/.test(plain[i])) last = i;
  // extend over the literal characters between placeholders (phone formats)
  let lastPh = first;
  for (let i = first; i < plain.length; i++) if (/[0#?]/.test(plain[i])) lastPh = i;
  last = Math.max(last, lastPh);
  const prefix = literal(section.slice(0, first));
  let suffix = literal(section.slice(last + 1));
  const body = section.slice(first, last + 1);
  const percent = /%/.test(plain);
  if (percent) v *= 100;
  if (/E[+-]/i.test(plain)) return prefix + plainNumber(v) + suffix.replace(/^[+-]?\d*/, "");
  const dot = body.indexOf(".");
  const intPart = dot < 0 ? body : body.slice(0, dot);
  const fracPart = dot < 0 ? "" : body.slice(dot + 1);
  const decimals = (fracPart.match(/[0#?]/g) ?? []).length;
  const minDecimals = (fracPart.match(/0/g) ?? []).length;
  const grouping = /[0#?],[0#?]/.test(intPart);
  const scaled = intPart.match(/,+$/)?.[0].length ?? 0;
  if (scaled) v /= 1000 ** scaled;
  let text = decimals || Number.isInteger(v) ? Math.abs(v).toFixed(decimals) : plainNumber(Math.abs(v));
  if (/e/i.test(text)) text = plainNumber(Math.abs(v));
  let [ip, fp = ""] = text.split(".");
  if (decimals > minDecimals) fp = fp.replace(/0+$/, "").padEnd(minDecimals, "0");
  const interleaved = /[0#?][^0#?,.]+[0#?]/.test(intPart.replace(/"[^"]*"|\\./g, "x"));
  if (interleaved) {
    ip = placeDigits(intPart, ip);
  } else {
    const minInt = (intPart.match(/0/g) ?? []).length;
    if (ip === "0" && minInt === 0) ip = "";
    ip = ip.padStart(minInt, "0");
    if (grouping) ip = ip.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }
  const sign = v < 0 && !/[()]/.test(section) ? "-" : "";
  if (percent && !suffix.includes("%") && !body.includes("%")) suffix = "%" + suffix;
  if (percent && body.includes("%")) suffix = "%" + suffix;
  return sign + prefix + ip + (fp ? "." + fp : decimals && minDecimals ? "." : "") + suffix;
}

/** Digits into a placeholder pattern such as `(###) ###-####`, right to left; extra digits go left. */
function placeDigits(pattern: string, digits: string): string {
  const parts: string[] = [];
  let d = digits.length - 1;
  const firstPlaceholder = pattern.search(/[0#?]/);
  for (let i = pattern.length - 1; i >= 0; i--) {
    const c = pattern[i];
    if (c === '"') {
      const j = pattern.lastIndexOf('"', i - 1);
      parts.unshift(pattern.slice(j + 1, i));
      i = j;
      continue;
    }
    if (i > 0 && pattern[i - 1] === "\\") {
      parts.unshift(c);
      i--;
      continue;
    }
    if (/[0#?]/.test(c)) {
      let out = d >= 0 ? digits[d--] : c === "0" ? "0" : c === "?" ? " " : "";
      if (i === firstPlaceholder && d >= 0) {
        out = digits.slice(0, d + 1) + out;
        d = -1;
      }
      parts.unshift(out);
    } else if (c !== ",") parts.unshift(c);
  }
  return parts.join("");
}

/** The text Excel shows for a number under `format` (undefined or "General" → every digit). */
export function formatExcelNumber(v: number, format: string | undefined, date1904 = false): string {
  if (!format || /^general$/i.test(format.trim()) || format === "@") return plainNumber(v);
  if (isDateFormat(format)) return formatDate(sections(format)[0], v, date1904);
  const { section, abs } = pick(format, v);
  const value = abs ? Math.abs(v) : v;
  if (/^general$/i.test(bare(section).trim())) return plainNumber(value);
  return formatNumber(section, value);
}

/** One CSV field, quoted when it holds a comma, quote, CR or LF (RFC 4180). */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
