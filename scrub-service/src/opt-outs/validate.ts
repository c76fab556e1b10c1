/**
 * Opt-outs (issue #47, decision 195): a consumer's do-not-call request or revocation of consent, as a customer
 * reports it, checked before anything is stored. Pure: no I/O, no clock of its own (the caller passes `nowMs`).
 * All or nothing, as call records (calls/validate.ts): every bad record is named by its index and field.
 */
import { parsePhone } from "../numbers/normalize";
import { AT_FORMAT_MESSAGE, parseInstant } from "../calling/instant";
import { CLOCK_SKEW_MS, RETENTION_YEARS, retentionCutoff } from "../calls/validate";

/** How the request reached the customer. */
export const OPT_OUT_CHANNELS = ["call", "text", "e-mail", "web", "in-person"] as const;
export type OptOutChannelName = (typeof OPT_OUT_CHANNELS)[number];
/** Spellings taken for a channel (a CSV's "email", "in person"). */
const CHANNEL_ALIASES: Record<string, OptOutChannelName> = { email: "e-mail", "in person": "in-person", inperson: "in-person", sms: "text", phone: "call" };

/** Most opt-outs one request (or one CSV import) may carry. */
export const MAX_OPT_OUTS_PER_REQUEST = 10_000;
/** The words received, at most this many characters. */
export const MAX_OPT_OUT_WORDS = 1000;
export const MAX_OPT_OUT_SUBJECT = 200;

/** An opt-out as it arrives (JSON, a form or a CSV row), before checking. */
export interface OptOutInput {
  number?: unknown;
  received_at?: unknown;
  channel?: unknown;
  words?: unknown;
  subject?: unknown;
}

/** A checked opt-out, ready to store. */
export interface OptOut {
  /** The normalized 10-digit number. */
  number: number;
  receivedMs: number;
  /** The UTC offset the instant was said in (minutes east): the day of receipt is that clock's day. */
  offsetMinutes: number;
  channel: OptOutChannelName;
  words: string;
  subject: string | null;
}

export interface OptOutError {
  /** The record's position in the request (0-based), or -1 for the request itself. */
  index: number;
  field: string;
  message: string;
}

export type OptOutsCheck = { ok: true; records: OptOut[] } | { ok: false; errors: OptOutError[] };

/** The offset of an ISO-8601 instant's text (Z: 0), in minutes east of UTC. */
export function offsetMinutesOf(text: string): number {
  const m = /([+-])(\d{2}):?(\d{2})$/.exec(text.trim());
  if (!m) return 0;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** A channel as said (case and the aliases forgiven), or null. */
export function optOutChannelOf(v: unknown): OptOutChannelName | null {
  if (typeof v !== "string") return null;
  const s = v.trim().toLowerCase();
  if ((OPT_OUT_CHANNELS as readonly string[]).includes(s)) return s as OptOutChannelName;
  return CHANNEL_ALIASES[s] ?? null;
}

/**
 * One opt-out. The instant must carry its offset, be at most 5 minutes past `nowMs` and within the five years opt-outs
 * are kept; the number goes through the engine's one normalizer; the words are required (what the consumer said or
 * wrote, as received).
 */
export function checkOptOut(input: OptOutInput, index: number, nowMs: number, errors: OptOutError[]): OptOut | null {
  const before = errors.length;
  const bad = (field: string, message: string) => errors.push({ index, field, message });
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    bad("record", "each opt-out must be an object");
    return null;
  }
  let number = 0;
  if ((typeof input.number !== "string" && typeof input.number !== "number") || String(input.number).trim() === "") bad("number", "number is required");
  else {
    const p = parsePhone(String(input.number));
    if (p.ok) number = p.number;
    else bad("number", p.message);
  }
  let receivedMs = 0;
  let offsetMinutes = 0;
  if (typeof input.received_at !== "string" || input.received_at.trim() === "") bad("received_at", `received_at is required and ${AT_FORMAT_MESSAGE}`);
  else {
    const t = parseInstant(input.received_at, "received_at");
    if (!t.ok) bad("received_at", t.message);
    else if (t.ms > nowMs + CLOCK_SKEW_MS) bad("received_at", "received_at is in the future (more than 5 minutes after the server's clock)");
    else if (t.ms < retentionCutoff(nowMs).getTime())
      bad("received_at", `received_at is more than ${RETENTION_YEARS} years ago: opt-outs are kept ${RETENTION_YEARS} years`);
    else {
      receivedMs = t.ms;
      offsetMinutes = offsetMinutesOf(input.received_at);
    }
  }
  const channel = optOutChannelOf(input.channel);
  if (!channel) bad("channel", `channel must be one of ${OPT_OUT_CHANNELS.join(", ")}`);
  let words = "";
  if (typeof input.words !== "string" || input.words.trim() === "") bad("words", "words is required: what the consumer said or wrote, as received");
  else if (input.words.trim().length > MAX_OPT_OUT_WORDS) bad("words", `words must be at most ${MAX_OPT_OUT_WORDS} characters`);
  else words = input.words.trim();
  let subject: string | null = null;
  if (input.subject !== undefined && input.subject !== null) {
    if (typeof input.subject !== "string") bad("subject", "subject must be text");
    else if (input.subject.trim().length > MAX_OPT_OUT_SUBJECT) bad("subject", `subject must be at most ${MAX_OPT_OUT_SUBJECT} characters`);
    else subject = input.subject.trim() || null;
  }
  if (errors.length > before) return null;
  return { number, receivedMs, offsetMinutes, channel: channel!, words, subject };
}

/** A request's opt-outs, all or nothing: 1 to 10,000 of them, every bad one named by index and field. */
export function checkOptOuts(input: unknown, nowMs: number): OptOutsCheck {
  if (!Array.isArray(input)) return { ok: false, errors: [{ index: -1, field: "opt_outs", message: "opt_outs must be a list of opt-outs" }] };
  if (input.length === 0) return { ok: false, errors: [{ index: -1, field: "opt_outs", message: "Send at least one opt-out" }] };
  if (input.length > MAX_OPT_OUTS_PER_REQUEST) {
    return { ok: false, errors: [{ index: -1, field: "opt_outs", message: `Send at most ${MAX_OPT_OUTS_PER_REQUEST} opt-outs per request` }] };
  }
  const errors: OptOutError[] = [];
  const records: OptOut[] = [];
  for (let i = 0; i < input.length; i++) {
    const r = checkOptOut(input[i] as OptOutInput, i, nowMs, errors);
    if (r) records.push(r);
  }
  return errors.length ? { ok: false, errors } : { ok: true, records };
}
