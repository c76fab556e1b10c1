/**
 * A call-history file's rows as call records (issue #46, decision 185): the columns found by name, and a VICIdial
 * `vicidial_log` export recognised by its header. Pure: the CLI's reader (import.ts) feeds it rows.
 *
 * VICIdial's call_date is the dialer server's local time without an offset, so such a file needs the server's zone
 * (--tz). Its status and length_in_sec become an outcome:
 *   - a status in CONVERSATION_STATUSES (an agent talked with the person: SALE, NI not interested, XFER transferred,
 *     CALLBK callback, DNC do-not-call request, DEC declined, NP no pitch) → conversation;
 *   - otherwise length_in_sec > 0 → connected (answered: a machine, a drop, a hang-up);
 *   - otherwise → attempted (no answer, busy, disconnected number).
 * A custom status an agent sets after talking would be read as connected: name it in CONVERSATION_STATUSES when needed.
 */
import { instantOf, isKnownZone } from "../calling/clock";
import type { CallRecordInput } from "./validate";

export const VICIDIAL_COLUMNS = ["call_date", "phone_number", "campaign_id", "status", "length_in_sec"] as const;
export const CONVERSATION_STATUSES: ReadonlySet<string> = new Set(["SALE", "NI", "XFER", "CALLBK", "DNC", "DEC", "NP"]);

const ALIASES: Record<string, readonly string[]> = {
  number: ["number", "phone", "phone_number"],
  at: ["at", "call_date"],
  subject: ["subject", "campaign_id", "campaign"],
  channel: ["channel"],
  outcome: ["outcome", "status"],
  debt_id: ["debt_id"],
  dialer_call_id: ["dialer_call_id", "call_id", "uniqueid"],
};

export interface CallFileLayout {
  format: "csv" | "vicidial";
  /** Column index per record field (-1: absent). */
  columns: Record<keyof typeof ALIASES, number> & { length_in_sec: number };
  /** The zone instants without an offset are read in (--tz), or null. */
  zone: string | null;
}

/** The record fields a column can feed (a mapping names a header for each). */
export const CALL_FILE_FIELDS = Object.keys(ALIASES) as (keyof typeof ALIASES)[];
export type CallFileField = (typeof CALL_FILE_FIELDS)[number];
/** A chosen column (by its header, as written in the file) per field; the rest absent. */
export type CallFileMapping = Partial<Record<CallFileField, string>>;

/** Why a file's header was refused; `code` lets a screen word it its own way (the message is the CLI's). */
export class CallFileError extends Error {
  constructor(
    message: string,
    readonly code: "bad_zone" | "vicidial_needs_zone" | "unmapped" | "bad_mapping" = "unmapped",
  ) {
    super(message);
  }
}

const headerName = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/^\ufeff/, "");

/**
 * The layout from the header row; refuses a file without number and at columns, and a VICIdial file without --tz.
 * With a `mapping`, its named columns are used instead of the names (a VICIdial header is still recognised).
 */
export function callFileLayout(header: readonly string[], zone: string | null, mapping?: CallFileMapping): CallFileLayout {
  const names = header.map(headerName);
  const find = (alts: readonly string[]) => {
    for (const a of alts) {
      const i = names.indexOf(a);
      if (i >= 0) return i;
    }
    return -1;
  };
  const vicidial = VICIDIAL_COLUMNS.every((c) => names.includes(c));
  const columns = Object.fromEntries(
    Object.entries(ALIASES).map(([k, alts]) => {
      if (!mapping || vicidial) return [k, find(alts)];
      const chosen = mapping[k as CallFileField];
      return [k, chosen ? names.indexOf(headerName(chosen)) : -1];
    }),
  ) as CallFileLayout["columns"];
  columns.length_in_sec = names.indexOf("length_in_sec");
  if (mapping && !vicidial) {
    const missing = Object.entries(mapping).find(([, h]) => h && names.indexOf(headerName(h)) < 0);
    if (missing) throw new CallFileError(`The file has no column ${missing[1]} (chosen for ${missing[0]}).`, "bad_mapping");
  }
  if (zone !== null && !isKnownZone(zone)) throw new CallFileError(`--tz ${zone} is not a time zone (use an IANA name such as America/New_York).`, "bad_zone");
  if (vicidial && zone === null) {
    throw new CallFileError(
      "This is a VICIdial vicidial_log export: its call_date is the dialer server's local time without an offset. Give the server's time zone with --tz ZONE (e.g. --tz America/New_York).",
      "vicidial_needs_zone",
    );
  }
  if (columns.number < 0 || columns.at < 0) {
    throw new CallFileError(
      "The file needs a header row naming the number (number, phone or phone_number) and the instant (at or call_date) columns.",
      mapping ? "bad_mapping" : "unmapped",
    );
  }
  return { format: vicidial ? "vicidial" : "csv", columns, zone };
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A local date-time without an offset read in `zone`, as an ISO instant; anything else unchanged (the checks judge it). */
export function instantInZone(text: string, zone: string | null): string {
  const m = zone ? LOCAL.exec(text.trim()) : null;
  if (!m || !zone) return text;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0));
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return text;
  // a wall time repeated when clocks go back reads as its first occurrence; one skipped when they go forward, as the gap's end
  return new Date(instantOf(zone, y, mo, d, h * 60 + mi) + s * 1000).toISOString();
}

/** One row as a record input. */
export function callOfRow(cells: readonly string[], layout: CallFileLayout): CallRecordInput {
  const c = layout.columns;
  const cell = (i: number) => (i >= 0 ? (cells[i] ?? "").trim() : "");
  const opt = (i: number) => cell(i) || undefined;
  let outcome: string | undefined = opt(c.outcome);
  if (layout.format === "vicidial") {
    const status = cell(c.outcome).toUpperCase();
    const seconds = Number(cell(c.length_in_sec));
    outcome = CONVERSATION_STATUSES.has(status) ? "conversation" : Number.isFinite(seconds) && seconds > 0 ? "connected" : "attempted";
  }
  return {
    number: cell(c.number),
    at: instantInZone(cell(c.at), layout.zone),
    subject: opt(c.subject),
    channel: layout.format === "vicidial" ? "call" : opt(c.channel),
    outcome,
    debt_id: opt(c.debt_id),
    dialer_call_id: opt(c.dialer_call_id),
  };
}

/**
 * An incremental CSV splitter (RFC 4180 quotes, CRLF/LF/CR lines; commas only): push text chunks, take the complete
 * rows. Memory is one row plus one chunk.
 */
export class CsvRowSplitter {
  private cells: string[] = [];
  private cell = "";
  private quoted = false;
  private afterQuote = false;
  private lastCr = false;
  private rows: string[][] = [];
  /** Longest row kept (characters): a row past it is a broken file, not a record. */
  constructor(private readonly maxRow = 64 * 1024) {}
  private length = 0;

  push(text: string): string[][] {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (this.lastCr) {
        this.lastCr = false;
        if (ch === "\n") continue;
      }
      if (this.quoted) {
        if (ch === '"') {
          if (text[i + 1] === '"') {
            this.cell += '"';
            i++;
          } else if (i + 1 === text.length) {
            // a quote at the chunk's end: decided by the next chunk
            this.quoted = false;
            this.afterQuote = true;
          } else this.quoted = false;
        } else this.cell += ch;
      } else if (this.afterQuote && ch === '"') {
        this.cell += '"';
        this.quoted = true;
        this.afterQuote = false;
      } else {
        this.afterQuote = false;
        if (ch === '"' && this.cell === "") this.quoted = true;
        else if (ch === ",") {
          this.cells.push(this.cell);
          this.cell = "";
        } else if (ch === "\n" || ch === "\r") {
          this.endRow();
          this.lastCr = ch === "\r";
        } else this.cell += ch;
      }
      if (++this.length > this.maxRow) throw new CallFileError(`A row is longer than ${this.maxRow} characters: not a call-history file.`);
    }
    const out = this.rows;
    this.rows = [];
    return out;
  }

  end(): string[][] {
    if (this.cell !== "" || this.cells.length) this.endRow();
    const out = this.rows;
    this.rows = [];
    return out;
  }

  private endRow(): void {
    this.cells.push(this.cell);
    if (!(this.cells.length === 1 && this.cells[0] === "")) this.rows.push(this.cells);
    this.cells = [];
    this.cell = "";
    this.length = 0;
  }
}
