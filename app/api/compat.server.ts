import { DEFAULT_SUBJECT, MAX_CALL_TEXT, zoneOffsetMinutes } from "scrub-service/domain";
import { MAX_LOOKUP_NUMBERS } from "scrub-service";
import { ApiError, apiErrorOf, authenticateKey, rateHeaders, type ApiContext } from "./api.server";
import { answerLookup, DEFAULT_LOOKUP_CALLS, FULLEST_TYPE, parseEntries, requireLookupAccess, type LookupInput } from "./lookup.server";
import { recordLookupInLedger } from "./ledger.server";
import { readBodyCapped } from "~/intake/api-body.server";
import { isUnlimitedRole, recordLookupUsage } from "~/models/usage.server";
import { findDialerCampaignCached, recordDialerRequest, type DialerEndpoint } from "~/models/dialer.server";
import { getCallCounters } from "~/utils/call-counters.server";
import { getScrubService } from "~/utils/scrub.server";
import { addLogContext } from "~/utils/log.server";

/*
 * The dialer compatibility layer (issue #48, decision 189): the DNCScrub-compatible scrub and the yes/no check answer
 * from the live lookup's answerLookup (the one decision, decision 182) and only format it. Every refused request is
 * logged with its reason and kept as the customer's last request when the key is known (the Integrations page).
 */

/** The answer's fields, in the DNCScrub scrub API's order (its output guide). */
export const COMPAT_FIELDS = [
  "Phone",
  "ResultCode",
  "Reserved",
  "Reason",
  "RegionAbbrev",
  "Country",
  "Locale",
  "CarrierInfo",
  "NewReassignedAreaCode",
  "TZCode",
  "CallingWindow",
  "UTCOffset",
  "DoNotCallToday",
  "CallingTimeRestrictions",
  "EBRType",
  "IsWirelessOrVoIP",
  "LineType",
] as const;
export type CompatField = (typeof COMPAT_FIELDS)[number];
export type CompatRow = Record<CompatField, string>;

/** The result codes we answer (the published output guide's, where we hold the facts). */
export const COMPAT_CODES = {
  C: "callable: on no list the request checks (whatever the hour: see DoNotCallToday and CallingWindow)",
  D: "do not call: on a do-not-call list, the litigator list or the campaign's container (Reason: the list's code)",
  O: "on a list, cleared by an established business relationship or consent (Reason: the lists cleared; EBRType: the basis)",
  E: "a valid relationship or consent, on no list (EBRType: the basis)",
  I: "invalid number (Reason: the invalid reason's code)",
} as const;
export type CompatCode = keyof typeof COMPAT_CODES;

/**
 * Numbers one compatible request may carry. VICIdial's filter gathers 1,000-lead chunks until it holds 50,000 numbers,
 * so it sends up to 50,999: 60,000 leaves room.
 */
export const MAX_COMPAT_NUMBERS = 60_000;
/** 60,000 entries of 10 digits and a comma are 660 KB; identifiers may add up to 60 characters each. */
export const MAX_COMPAT_BODY_BYTES = 6 * 1024 * 1024;
export const MAX_COMPAT_ENTRY = 40;
export const MAX_COMPAT_IDENTIFIER = 60;
/** Lookups of one request answered at once (each is up to MAX_LOOKUP_NUMBERS numbers). */
const CHUNKS_AT_ONCE = 4;

/** A compatibility request refused: `status` and one line of text (VICIdial's filter reads bodies, not statuses). */
export class CompatRefusal extends Error {
  constructor(
    public status: number,
    message: string,
    public headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A field or entry that would break a dialer that splits lines on commas and writes them unescaped into SQL. */
const UNSAFE = /["'\\,\u0000-\u001f\u007f]/;

/** The request's parameters: the query string, then (POST) the body's fields: form-encoded, multipart or a JSON object. */
export async function readCompatParams(request: Request, maxBytes = MAX_COMPAT_BODY_BYTES): Promise<Map<string, string>> {
  const params = new Map<string, string>();
  for (const [k, v] of new URL(request.url).searchParams) params.set(k, v);
  if (request.method.toUpperCase() === "GET" || request.method.toUpperCase() === "HEAD") return params;
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  let bytes: Buffer;
  try {
    bytes = await readBodyCapped(request, maxBytes);
  } catch (e) {
    if (e instanceof ApiError) throw new CompatRefusal(e.status, `The request body is too large: the limit is ${maxBytes} bytes.`);
    throw e;
  }
  if (bytes.length === 0) return params;
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(bytes), { headers: { "Content-Type": request.headers.get("Content-Type") ?? "" } }).formData();
    } catch {
      throw new CompatRefusal(400, "The multipart body could not be read.");
    }
    for (const [k, v] of form) if (typeof v === "string") params.set(k, v);
  } else if (type.startsWith("application/json")) {
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString("utf8"));
    } catch {
      throw new CompatRefusal(400, "The request body is not valid JSON.");
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw new CompatRefusal(400, "Send a JSON object of the parameters.");
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") params.set(k, String(v));
      else if (Array.isArray(v) && k === "phoneList") params.set(k, v.map(String).join(","));
    }
  } else if (type === "" || type.startsWith("application/x-www-form-urlencoded") || type.startsWith("text/plain")) {
    for (const [k, v] of new URLSearchParams(bytes.toString("utf8"))) params.set(k, v);
  } else {
    throw new CompatRefusal(415, "Send the parameters form-encoded, as multipart/form-data or as a JSON object.");
  }
  return params;
}

/** A phoneList entry: the phone as sent, and the identifier after its `|` (echoed in Reserved), or "". */
export interface CompatEntry {
  phone: string;
  identifier: string;
}

/** `phoneList`: comma-separated entries, each optionally `|identifier`, in order, repeats kept; a trailing comma ends the list. */
export function parsePhoneList(text: string | undefined): CompatEntry[] {
  if (text === undefined || text.trim() === "") throw new CompatRefusal(400, "phoneList is required: comma-separated 10-digit numbers.");
  const parts = text.split(",");
  if (parts.length > 1 && parts[parts.length - 1].trim() === "") parts.pop();
  if (parts.length > MAX_COMPAT_NUMBERS) {
    throw new CompatRefusal(413, `phoneList holds ${parts.length} numbers: at most ${MAX_COMPAT_NUMBERS} per request.`);
  }
  return parts.map((part, i) => {
    const bar = part.indexOf("|");
    const phone = bar < 0 ? part : part.slice(0, bar);
    const identifier = bar < 0 ? "" : part.slice(bar + 1);
    if (phone.length > MAX_COMPAT_ENTRY) throw new CompatRefusal(400, `phoneList entry ${i + 1} is longer than ${MAX_COMPAT_ENTRY} characters.`);
    if (UNSAFE.test(phone)) throw new CompatRefusal(400, `phoneList entry ${i + 1} holds a quote, backslash or control character.`);
    if (identifier.length > MAX_COMPAT_IDENTIFIER) {
      throw new CompatRefusal(400, `The identifier of phoneList entry ${i + 1} is longer than ${MAX_COMPAT_IDENTIFIER} characters.`);
    }
    if (UNSAFE.test(identifier) || identifier.includes("|")) {
      throw new CompatRefusal(400, `The identifier of phoneList entry ${i + 1} holds a quote, backslash, bar or control character.`);
    }
    return { phone, identifier };
  });
}

/** The key: the `loginId` header, else the `loginId` field (the scrub), else a bearer header or the `key` parameter. */
export function presentedKey(request: Request, params: Map<string, string> | null, field: "loginId" | "key"): string | null {
  const header = request.headers.get("loginId") ?? request.headers.get("Authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? null;
  if (header && header.trim() !== "") return header.trim();
  const v = params?.get(field)?.trim();
  return v ? v : null;
}

/** One lookup answer entry, as the lookup's JSON writes it (the OpenAPI document's LookupResult). */
interface LookupEntry {
  number: string | null;
  valid: boolean;
  reason: string | null;
  region: string | null;
  state: string | null;
  timeZones: string[];
  callableNow: boolean | null;
  nextCallAt: string | null;
  nextCallLocal: string | null;
  lists: string[];
  containers: { id: number }[];
  suppressed: boolean;
  suppressed_by: string | null;
  exempt?: { basis: string } | null;
}

/** What a compatible request asks: the campaign (the call-history subject, and its settings) and the instant. */
export interface CompatAsk {
  campaignId: string | null;
  /** The request's instant: every number is decided at it. */
  now: Date;
}

/** The answer's rows, and what was decided in numbers (the log and the last-request record). */
export interface CompatAnswer {
  rows: CompatRow[];
  counts: Record<CompatCode, number>;
}

/**
 * Decides every entry through answerLookup (the live lookup's one decision, decision 182), in chunks of the lookup's
 * 1,000 numbers at one instant, the campaign's container and exemption list applied and its id as the calls' subject;
 * counts the entries against the plan as lookups once every chunk was answered (none when one fails); then formats.
 */
export async function answerCompat(api: ApiContext, entries: CompatEntry[], ask: CompatAsk): Promise<CompatAnswer> {
  const subject = ask.campaignId && ask.campaignId.trim() !== "" ? ask.campaignId.trim().slice(0, MAX_CALL_TEXT) : DEFAULT_SUBJECT;
  // the campaign's settings, reused for a second (decision 196: no database read per check in steady state)
  const campaign = ask.campaignId ? await findDialerCampaignCached(api.db, api.userId, ask.campaignId) : undefined;
  const service = await getScrubService();
  const asked = { db: api.db, service, userId: api.userId, containerId: api.containerId, counters: await getCallCounters() };
  const chunks: CompatEntry[][] = [];
  for (let i = 0; i < entries.length; i += MAX_LOOKUP_NUMBERS) chunks.push(entries.slice(i, i + MAX_LOOKUP_NUMBERS));
  const answers: { data: LookupEntry[]; containerId: number | null; relationships: Map<number, string>; bytes: Buffer }[] = new Array(chunks.length);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const k = next++;
      const input: LookupInput = {
        entries: parseEntries(chunks[k].map((e) => e.phone)),
        suppressionType: FULLEST_TYPE,
        containerId: campaign?.containerId ?? undefined,
        exemptionListId: campaign?.exemptionListId ?? null,
        calls: { ...DEFAULT_LOOKUP_CALLS, subject },
      };
      const answered = await answerLookup(asked, input, ask.now);
      const bytes = answered.json();
      const json = JSON.parse(bytes.toString("utf8")) as { data: LookupEntry[]; container_id: number | null };
      answers[k] = { data: json.data, containerId: json.container_id, relationships: answered.relationships(), bytes };
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHUNKS_AT_ONCE, chunks.length) }, worker));
  // a plan's refusal (no plan, over the limit) is answered through the API's mapper (refusalOf)
  await recordLookupUsage(api.db, { userId: api.userId, amount: entries.length, unlimited: isUnlimitedRole(api.role), period: api.period });
  // each chunk's answer in the decision ledger, once it is the customer's (decision 197)
  for (const a of answers) recordLookupInLedger(api.db, api.userId, a.bytes);
  const atMs = ask.now.getTime();
  const rows: CompatRow[] = new Array(entries.length);
  const counts: Record<CompatCode, number> = { C: 0, D: 0, O: 0, E: 0, I: 0 };
  chunks.forEach((chunk, k) => {
    const a = answers[k];
    chunk.forEach((e, i) => {
      const row = compatRow(e, a.data[i], a.containerId, a.relationships, atMs);
      counts[row.ResultCode as CompatCode]++;
      rows[k * MAX_LOOKUP_NUMBERS + i] = row;
    });
  });
  return { rows, counts };
}

const EMPTY_ROW: CompatRow = Object.fromEntries(COMPAT_FIELDS.map((f) => [f, ""])) as CompatRow;

/** A list's code in Reason: its kind (dnc, litigation, dnc-tx, …), `container-<id>`, or stale_list; never a customer-written name. */
function listCode(reason: string, containerId: number | null): string {
  return reason === "container" && containerId !== null ? `container-${containerId}` : reason;
}

/** The local calendar date of `atMs` at the offset an ISO local time carries ("…-05:00"), or null. */
function localDateAt(atMs: number, isoLocal: string): string | null {
  const m = /([+-])(\d{2}):(\d{2})$/.exec(isoLocal);
  if (!m) return null;
  const offset = (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  return new Date(atMs + offset * 60_000).toISOString().slice(0, 10);
}

/** One entry's row, formatted from the lookup's answer: the facts we hold, every other field empty. */
export function compatRow(e: CompatEntry, d: LookupEntry, containerId: number | null, relationships: Map<number, string>, atMs: number): CompatRow {
  const row: CompatRow = { ...EMPTY_ROW, Phone: e.phone, Reserved: e.identifier };
  if (!d.valid || d.number === null) {
    row.ResultCode = "I";
    row.Reason = d.reason ?? "invalid";
    return row;
  }
  row.RegionAbbrev = d.state ?? "";
  row.Country = d.region ?? "";
  if (d.suppressed) {
    row.ResultCode = "D";
    row.Reason = listCode(d.suppressed_by ?? "", containerId);
  } else if (d.exempt) {
    row.ResultCode = "O";
    row.Reason = d.lists.join("+");
    row.EBRType = d.exempt.basis;
  } else {
    const basis = relationships.get(Number(d.number));
    row.ResultCode = basis ? "E" : "C";
    row.EBRType = basis ?? "";
  }
  // the calling rules and caps at the request's instant: C means "on no list", the hour is told here
  if (d.callableNow !== null) {
    row.CallingWindow = d.callableNow ? "NOW" : (d.nextCallAt ?? "");
    // "1" no call for the rest of the number's local day, "0" one is allowed (the published examples answer "0")
    if (d.callableNow) row.DoNotCallToday = "0";
    else if (d.nextCallLocal && d.nextCallAt) {
      const today = localDateAt(atMs, d.nextCallLocal);
      row.DoNotCallToday = today === null || today !== d.nextCallLocal.slice(0, 10) ? "1" : "0";
    } else row.DoNotCallToday = "1"; // no time zone: the strictest reading
  }
  if (d.timeZones.length === 1) row.UTCOffset = String(zoneOffsetMinutes(d.timeZones[0], atMs));
  return row;
}

/** The CSV answer: no header, one line per entry, fields joined by commas (none holds a comma, quote or backslash). */
export function compatCsv(rows: CompatRow[]): string {
  let out = "";
  for (const r of rows) {
    out += COMPAT_FIELDS.map((f) => r[f]).join(",");
    out += "\n";
  }
  return out;
}

/** A refusal as one line of text, whatever it held (no line break). */
export function oneLine(message: string): string {
  return message.replace(/[\r\n]+/g, " ").trim();
}

/** The request's refusal of anything thrown: CompatRefusals, and what the API's mapper knows, keep their status and words; anything else is 500. */
export function refusalOf(e: unknown): CompatRefusal {
  if (e instanceof CompatRefusal) return e;
  const known = apiErrorOf(e);
  if (known) return new CompatRefusal(known.status, known.message, known.headers ?? {});
  console.error("[compat] failed:", e);
  return new CompatRefusal(500, "An unexpected error occurred. Please try again.");
}

/**
 * Logs a refused compatibility request with its reason, and keeps it as the customer's last request of the endpoint
 * when the key was known.
 */
export async function noteRefusal(
  endpoint: DialerEndpoint,
  request: Request,
  r: CompatRefusal,
  api: ApiContext | null,
  extra: { numbers?: number | null; campaignId?: string | null } = {},
) {
  console.warn(
    `[compat] refused ${endpoint} ${request.method} ${new URL(request.url).pathname}: ${r.status} ${oneLine(r.message)}${api ? ` (user ${api.userId})` : ""}`,
  );
  if (api) {
    await recordDialerRequest(api.db, api.userId, {
      endpoint,
      method: request.method,
      status: r.status,
      outcome: "refused",
      detail: oneLine(r.message),
      numbers: extra.numbers ?? null,
      campaignId: extra.campaignId ?? null,
    });
  }
}

export async function noteAnswered(
  endpoint: DialerEndpoint,
  request: Request,
  api: ApiContext,
  status: number,
  detail: string,
  extra: { numbers?: number | null; campaignId?: string | null } = {},
) {
  await recordDialerRequest(api.db, api.userId, {
    endpoint,
    method: request.method,
    status,
    outcome: "answered",
    detail,
    numbers: extra.numbers ?? null,
    campaignId: extra.campaignId ?? null,
  });
}

/** Authenticates a key for the compatibility layer: the live lookup's budget (per second, not the API's hourly). */
export async function authenticateCompat(key: string | null, missing: string): Promise<ApiContext> {
  if (!key) throw new CompatRefusal(401, missing);
  const api = await authenticateKey(key, "lookup");
  addLogContext({ userId: api.userId });
  return api;
}

/** A plain-text answer with the key's rate-limit headers. */
export function textAnswer(
  api: ApiContext | null,
  body: string,
  status = 200,
  headers: Record<string, string> = {},
  type = "text/plain; charset=utf-8",
): Response {
  const h = api ? rateHeaders(api.rate) : new Headers();
  h.set("Content-Type", type);
  h.set("Cache-Control", "no-store");
  for (const [k, v] of Object.entries(headers)) h.set(k, v);
  return new Response(body, { status, headers: h });
}

/** The scrub's summary for the log and the last request: "51000 numbers: C 50990, D 10". */
export function countsText(n: number, counts: Record<CompatCode, number>): string {
  const parts = (Object.keys(counts) as CompatCode[]).filter((c) => counts[c] > 0).map((c) => `${c} ${counts[c]}`);
  return `${n} number${n === 1 ? "" : "s"}${parts.length ? `: ${parts.join(", ")}` : ""}`;
}

/** Checks the plan allows API lookups (403 otherwise). */
export { requireLookupAccess };
