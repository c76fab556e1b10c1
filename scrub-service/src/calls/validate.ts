/**
 * Call history records (issue #46, decision 185): what a customer's call or text is, checked before anything is
 * stored. Pure: no I/O, no clock of its own (the caller passes `nowMs`). All or nothing: every bad record is named by
 * its index and field, and none is kept when one is bad.
 */
import { parsePhone } from "../numbers/normalize";
import { AT_FORMAT_MESSAGE, parseInstant } from "../calling/instant";

/** The subject of a record that names none: all of them are one subject (the stricter reading for per-subject caps). */
export const DEFAULT_SUBJECT = "default";
export const CALL_CHANNELS = ["call", "text"] as const;
export const CALL_OUTCOMES = ["attempted", "connected", "conversation"] as const;
export type CallChannel = (typeof CALL_CHANNELS)[number];
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** Most records one request (or one CLI batch) may carry. */
export const MAX_CALLS_PER_REQUEST = 10_000;
export const MAX_CALL_TEXT = 200;
/** A dialer's clock may run ahead of ours by this much; later instants are refused as in the future. */
export const CLOCK_SKEW_MS = 5 * 60_000;
/** Records are kept five years (16 CFR 310.5(a)(2) as amended in 2024): older ones are neither taken nor kept. */
export const RETENTION_YEARS = 5;

/** The first instant still kept at `nowMs`: the same instant five calendar years earlier (UTC). */
export function retentionCutoff(nowMs: number): Date {
  const d = new Date(nowMs);
  d.setUTCFullYear(d.getUTCFullYear() - RETENTION_YEARS);
  return d;
}

/** A record as it arrives (JSON or a CSV row), before checking. */
export interface CallRecordInput {
  number?: unknown;
  at?: unknown;
  subject?: unknown;
  channel?: unknown;
  outcome?: unknown;
  debt_id?: unknown;
  dialer_call_id?: unknown;
  reserved?: unknown;
}

/** A checked record, ready to store. */
export interface CallRecord {
  number: number;
  atMs: number;
  subject: string;
  channel: CallChannel;
  outcome: CallOutcome;
  debtId: string | null;
  dialerCallId: string | null;
  reserved: boolean;
}

export interface CallRecordError {
  /** The record's position in the request (0-based), or the CLI's line number. */
  index: number;
  field: string;
  message: string;
}

export type CallsCheck = { ok: true; records: CallRecord[] } | { ok: false; errors: CallRecordError[] };

const optionalText = (v: unknown, field: string, errors: (field: string, message: string) => void): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" && typeof v !== "number") {
    errors(field, `${field} must be text`);
    return null;
  }
  const s = String(v).trim();
  if (s === "") return null;
  if (s.length > MAX_CALL_TEXT) errors(field, `${field} must be at most ${MAX_CALL_TEXT} characters`);
  return s;
};

/**
 * One record. `index` names it in the errors. The instant must carry its offset (a bare local time names no instant),
 * be at most 5 minutes past `nowMs` and not older than five years; the number goes through the engine's one normalizer.
 */
export function checkCallRecord(input: CallRecordInput, index: number, nowMs: number, errors: CallRecordError[]): CallRecord | null {
  const before = errors.length;
  const bad = (field: string, message: string) => errors.push({ index, field, message });
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    bad("record", "each record must be an object");
    return null;
  }
  let number = 0;
  if (typeof input.number !== "string" && typeof input.number !== "number") bad("number", "number is required");
  else {
    const p = parsePhone(String(input.number));
    if (p.ok) number = p.number;
    else bad("number", p.message);
  }
  let atMs = 0;
  if (typeof input.at !== "string" || input.at.trim() === "") bad("at", `at is required and ${AT_FORMAT_MESSAGE}`);
  else {
    const t = parseInstant(input.at, "at");
    if (!t.ok) bad("at", t.message);
    else if (t.ms > nowMs + CLOCK_SKEW_MS) bad("at", "at is in the future (more than 5 minutes after the server's clock)");
    else if (t.ms < retentionCutoff(nowMs).getTime()) bad("at", `at is more than ${RETENTION_YEARS} years ago: records are kept ${RETENTION_YEARS} years`);
    else atMs = t.ms;
  }
  const subject = optionalText(input.subject, "subject", bad) ?? DEFAULT_SUBJECT;
  const channel = input.channel === undefined || input.channel === null || input.channel === "" ? "call" : input.channel;
  if (!CALL_CHANNELS.includes(channel as CallChannel)) bad("channel", `channel must be ${CALL_CHANNELS.join(" or ")}`);
  if (!CALL_OUTCOMES.includes(input.outcome as CallOutcome)) bad("outcome", `outcome must be one of ${CALL_OUTCOMES.join(", ")}`);
  const debtId = optionalText(input.debt_id, "debt_id", bad);
  const dialerCallId = optionalText(input.dialer_call_id, "dialer_call_id", bad);
  if (input.reserved !== undefined && input.reserved !== null && typeof input.reserved !== "boolean") bad("reserved", "reserved must be true or false");
  if (errors.length > before) return null;
  return {
    number,
    atMs,
    subject,
    channel: channel as CallChannel,
    outcome: input.outcome as CallOutcome,
    debtId,
    dialerCallId,
    reserved: input.reserved === true,
  };
}

/** A request's records, all or nothing: 1 to 10,000 of them, every bad one named by index and field. */
export function checkCallRecords(input: unknown, nowMs: number): CallsCheck {
  if (!Array.isArray(input)) return { ok: false, errors: [{ index: -1, field: "calls", message: "calls must be a list of call records" }] };
  if (input.length === 0) return { ok: false, errors: [{ index: -1, field: "calls", message: "Send at least one call record" }] };
  if (input.length > MAX_CALLS_PER_REQUEST) {
    return { ok: false, errors: [{ index: -1, field: "calls", message: `Send at most ${MAX_CALLS_PER_REQUEST} call records per request` }] };
  }
  const errors: CallRecordError[] = [];
  const records: CallRecord[] = [];
  for (let i = 0; i < input.length; i++) {
    const r = checkCallRecord(input[i] as CallRecordInput, i, nowMs, errors);
    if (r) records.push(r);
  }
  return errors.length ? { ok: false, errors } : { ok: true, records };
}

/** The first of the UTC month holding `ms`, as YYYY-MM-01 (a partition's month). */
export function monthOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}-01`;
}
