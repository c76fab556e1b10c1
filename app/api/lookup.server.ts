import { z } from "zod";
import {
  metrics,
  normalizeCode,
  numberKind,
  numberRegion,
  stateOfAreaCode,
  type ScrubService,
  normalizeBytes,
  NUMBER_KINDS,
  type NumberKind,
  ListStoreError,
  LookupBusyError,
  MAX_LOOKUP_NUMBERS,
  type LookupAnswer,
  callingClassOf,
  callingClassTable,
  parseInstant,
  CALLING_RULES_VERSION,
  evaluateClass,
  isoSecond,
  type ExemptionRow,
  isoDateOfDay,
  emergencyExemptionApplies,
  stateOfClass,
  type EmergencyClassTable,
  liveHistoryOf,
  reserveLive,
  callCountersOf,
  type CallCounterStore,
  type HistoryRecord,
  cappedCalling,
} from "scrub-service";
import { ApiError, fieldError, notFound, validate, type ApiContext } from "./api.server";
import { exemptionsOfNumbers } from "~/models/exemption.server";
import { lookupCallingTable } from "~/models/emergency-period.server";
import { parseJsonBody, readBodyCapped } from "~/intake/api-body.server";
import { scanLookupBody, type ScannedLookupBody } from "./lookup-body";
import { isUnlimitedRole, findActivePeriod, NoPlanError } from "~/models/usage.server";
import {
  CONTAINER_REASON,
  INTERNAL_DNC_REASON,
  decideNumber,
  decisionLists,
  decisionOrder,
  SUPPRESSION_LIST_TYPES,
  SUPPRESSION_TYPE_NAMES,
  listTypeOfSuppression,
  suppressionTypeChoices,
  type AdminListKind,
  type SuppressionTypeName,
  evaluationInstantProblem,
  listFreshness,
  staleListsOf,
  type ListFreshness,
  type StaleList,
  CALL_CHANNELS,
  DEFAULT_SUBJECT,
  EXEMPTION_BASES,
  LONGEST_CAP_WINDOW_MS,
  MAX_CALL_TEXT,
  CAPS_VERSION,
  type CapChannel,
  type CapPurpose,
} from "scrub-service/domain";

/*
 * POST /api/v1/lookup: a dialer's live check of up to 1,000 numbers (docs/decisions/111-live-lookup-api.md).
 * Each entry is normalized with the engine's one normalizer; the valid ones are looked up in the admin lists and
 * the key owner's containers by the scrub service, at the lists' current versions (fail closed: 503).
 */

/** 1,000 entries of up to 40 characters with quotes and commas fit in about 43 KB. */
export const MAX_LOOKUP_BODY_BYTES = 64 * 1024;

/** What the customer reads when the lists cannot be checked (the cause goes to the log). */
export const LOOKUP_UNAVAILABLE =
  "The suppression lists could not be checked just now, so no number was looked up and nothing was counted. Please try again in a minute.";

/** What the customer reads when the call history cannot be read (decision 187: fail closed, never "callable"). */
export const LOOKUP_CALLS_UNAVAILABLE =
  "The call history could not be read just now, so no number was looked up, reserved or counted. Please try again in a minute.";

/**
 * What the customer reads when the lookup's deadline passed because the server's event loop was late, not the list
 * store (issue #49): a true reason and a short wait, not "try again in a minute".
 */
export function lookupBusyMessage(lateMs: number): string {
  return `The server is busy (its event loop was ${lateMs.toLocaleString(
    "en-US",
  )} ms late), so no number was looked up and nothing was counted. Please retry shortly.`;
}

/** Seconds a client waits after a busy 503: a busy loop clears in moments, a store outage does not. */
export const LOOKUP_BUSY_RETRY_AFTER_S = 1;

/** The suppression type whose lists cover every admin list (the default: a dialer wants every list checked). */
export const FULLEST_TYPE: SuppressionTypeName = [...SUPPRESSION_LIST_TYPES].sort((a, b) => b.includes.length - a.includes.length)[0].suppressionType;

/** What the calls are for (decision 187): the caps of that purpose apply, the others not. */
export const LOOKUP_PURPOSES = ["telemarketing", "debt-collection"] as const satisfies readonly CapPurpose[];

export const lookupSchema = z.object({
  numbers: z
    .array(z.union([z.string().max(40, "Each number must be at most 40 characters"), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)]), {
      error: "numbers must be a list of phone numbers (strings or integers)",
    })
    .min(1, "Send at least one number")
    .max(MAX_LOOKUP_NUMBERS, `Send at most ${MAX_LOOKUP_NUMBERS.toLocaleString("en-US")} numbers per request; submit a scrub for more`),
  suppression_type: z.enum(SUPPRESSION_TYPE_NAMES, { error: `suppression_type must be ${suppressionTypeChoices()}` }).default(FULLEST_TYPE),
  container_id: z.number({ error: "container_id must be a container id" }).int().positive().max(2_147_483_647).nullable().optional(),
  /** The instant timeZones/callableNow/nextCallAt are answered for (default: now). Decision 131. */
  at: z.string({ error: "at must be a string" }).max(40, "at is too long").optional(),
  /** The key owner's exemption list: each answer says `exempt` (basis, date, until) when a record lets the number be called at `at`. Decision 161. */
  exemptions: z.number({ error: "exemptions must be an exemption list id" }).int().positive().max(2_147_483_647).nullable().optional(),
  /** The calls' subject (campaign) for per-subject caps; default the calls API's one subject. Decision 187. */
  subject: z.string({ error: "subject must be text" }).max(MAX_CALL_TEXT, `subject must be at most ${MAX_CALL_TEXT} characters`).nullable().optional(),
  /** telemarketing (default): the states' solicitation caps; debt-collection: Regulation F and Massachusetts, per debt_id. */
  purpose: z.enum(LOOKUP_PURPOSES, { error: `purpose must be ${LOOKUP_PURPOSES.join(" or ")}` }).default("telemarketing"),
  debt_id: z.string({ error: "debt_id must be text" }).max(MAX_CALL_TEXT, `debt_id must be at most ${MAX_CALL_TEXT} characters`).nullable().optional(),
  /** The contact about to be made: a cap that does not count it does not hold it; a reservation records it. */
  channel: z.enum(CALL_CHANNELS, { error: `channel must be ${CALL_CHANNELS.join(" or ")}` }).default("call"),
  /** Record a reserved attempt for each number callable now, in the same step as the check (decision 187). */
  reserve: z.boolean({ error: "reserve must be true or false" }).default(false),
});

export type LookupRequest = z.infer<typeof lookupSchema>;

/** The calls a lookup asks about (decision 187): counted against the caps of `purpose` on this subject, debt and channel. */
export interface LookupCalls {
  subject: string;
  purpose: CapPurpose;
  debtId: string | null;
  channel: CapChannel;
  /** Record a reserved attempt for each number callable now (the pre-dial step). */
  reserve: boolean;
}

export const DEFAULT_LOOKUP_CALLS: LookupCalls = { subject: DEFAULT_SUBJECT, purpose: "telemarketing", debtId: null, channel: "call", reserve: false };

/**
 * The plan gate, before the body is read, exactly as for scrubs: no plan → 403 no_plan, a plan without API
 * access → 403 api_not_in_plan. No query when the period came with the key (the lookup budget reads it); the
 * limit is checked when the usage is recorded.
 */
export async function requireLookupAccess(api: ApiContext): Promise<void> {
  if (isUnlimitedRole(api.role)) return;
  const period = api.period !== undefined ? api.period : await findActivePeriod(api.db, api.userId);
  if (!period) throw new ApiError(403, "no_plan", new NoPlanError("suppression").message);
  if (!period.apiAccess) {
    throw new ApiError(403, "api_not_in_plan", `Your ${period.planName} plan does not include API access. Upgrade under Pricing to use the API.`);
  }
}

/** A lookup request's entries and options, read and checked. */
export interface LookupInput {
  entries: ParsedEntries;
  suppressionType: SuppressionTypeName;
  /** undefined: not sent (the integration's container applies); null: sent as null (no container). */
  containerId: number | null | undefined;
  /** The calling answers' instant (ms), when sent. */
  at?: number;
  /** The exemption list to apply, when sent (decision 161). */
  exemptionListId?: number | null;
  /** The calls asked about and whether to reserve (decision 187); default DEFAULT_LOOKUP_CALLS. */
  calls?: LookupCalls;
}

/**
 * The JSON body, bounded before it is read (415 for another type, 413 past the cap), then read: the common shape
 * straight from its bytes (lookup-body.ts), anything else with JSON.parse (400) and the zod schema (422), which
 * agree on every body the byte reader takes (tested).
 */
export async function readLookupInput(request: Request): Promise<LookupInput> {
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  if (!type.startsWith("application/json")) throw new ApiError(415, "unsupported_media_type", 'Send the numbers as application/json: { "numbers": [...] }.');
  const bytes = await readBodyCapped(
    request,
    MAX_LOOKUP_BODY_BYTES,
    `The request body is too large. The limit is ${MAX_LOOKUP_BODY_BYTES} bytes (${MAX_LOOKUP_NUMBERS} numbers).`,
  );
  return lookupInputOf(bytes);
}

/** `scan: false` reads every body the general way (tests compare the two). */
export function lookupInputOf(bytes: Buffer, { scan = true } = {}): LookupInput {
  const scanned = scan ? scanLookupBody(bytes, MAX_LOOKUP_NUMBERS, SUPPRESSION_TYPE_NAMES) : null;
  if (scanned) {
    return {
      entries: entriesOfBytes(bytes, scanned),
      suppressionType: (scanned.suppressionType as SuppressionTypeName | undefined) ?? FULLEST_TYPE,
      containerId: scanned.containerId,
      calls: { ...DEFAULT_LOOKUP_CALLS },
    };
  }
  const input = validate(lookupSchema, parseJsonBody(bytes));
  let at: number | undefined;
  if (input.at !== undefined) {
    const parsed = parseInstant(input.at);
    if (!parsed.ok) {
      const message = parsed.message.replace(/^at /, "").replace(/\.$/, "");
      throw new ApiError(422, "validation_failed", `at: ${message}`, [{ field: "at", message }]);
    }
    at = parsed.ms;
  }
  const text = (v: string | null | undefined) => (v == null || v.trim() === "" ? null : v.trim());
  const debtId = text(input.debt_id);
  if (debtId !== null && input.purpose !== "debt-collection") {
    const message = 'is for purpose "debt-collection" only';
    throw new ApiError(422, "validation_failed", `debt_id: ${message}`, [{ field: "debt_id", message }]);
  }
  if (input.reserve && at !== undefined) {
    const message = "reserves an attempt now, at dial time: send no at with it";
    throw new ApiError(422, "validation_failed", `reserve: ${message}`, [{ field: "reserve", message }]);
  }
  return {
    entries: parseEntries(input.numbers),
    suppressionType: input.suppression_type,
    containerId: input.container_id,
    at,
    exemptionListId: input.exemptions ?? null,
    calls: { subject: text(input.subject) ?? DEFAULT_SUBJECT, purpose: input.purpose, debtId, channel: input.channel, reserve: input.reserve },
  };
}

export interface ParsedEntries {
  /** Per entry: the normalizer's code (numbers/normalize.ts normalizeCode): the 10-digit number, or < 0 the reason. */
  codes: Float64Array;
  /** Per entry: its index in `distinct`, or -1 when invalid. */
  at: Int32Array;
  /** Distinct valid numbers, what the service looks up. */
  distinct: number[];
  /** Per entry: the input as a JSON value (what the answer echoes), bytes [echoStarts[i], echoEnds[i]) of `echo`. */
  echo: Uint8Array;
  echoStarts: Uint32Array;
  echoEnds: Uint32Array;
}

/** Distinct valid numbers of the codes: each entry's index among them (-1 for an invalid one). */
function distinctOf(codes: Float64Array): { at: Int32Array; distinct: number[] } {
  const at = new Int32Array(codes.length);
  const index = new Map<number, number>();
  const distinct: number[] = [];
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (c < 0) {
      at[i] = -1;
      continue;
    }
    let k = index.get(c);
    if (k === undefined) {
      index.set(c, (k = distinct.length));
      distinct.push(c);
    }
    at[i] = k;
  }
  return { at, distinct };
}

/** Each entry through the one normalizer (the code parsePhone is built on: no object per entry). */
export function parseEntries(entries: (string | number)[]): ParsedEntries {
  const n = entries.length;
  const codes = new Float64Array(n);
  const echoes: string[] = new Array(n);
  const echoStarts = new Uint32Array(n);
  const echoEnds = new Uint32Array(n);
  let size = 0;
  for (let i = 0; i < n; i++) {
    const e = entries[i];
    const text = typeof e === "string" ? e : String(e);
    codes[i] = normalizeCode(text);
    echoes[i] = typeof e === "string" ? JSON.stringify(e) : text;
    echoStarts[i] = size;
    size += Buffer.byteLength(echoes[i]);
    echoEnds[i] = size;
  }
  const echo = Buffer.from(echoes.join(""));
  return { codes, ...distinctOf(codes), echo, echoStarts, echoEnds };
}

/** The scanned entries: numbers normalized from their bytes (normalizeBytes agrees with normalizeCode), echoed as sent. */
function entriesOfBytes(bytes: Buffer, scanned: ScannedLookupBody): ParsedEntries {
  const n = scanned.count;
  const codes = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const q = scanned.quoted[i];
    codes[i] = normalizeBytes(bytes, scanned.starts[i] + q, scanned.ends[i] - q);
  }
  return { codes, ...distinctOf(codes), echo: bytes, echoStarts: scanned.starts, echoEnds: scanned.ends };
}

/** What `suppressed_by` says of a number no fresh list holds while a list the lookup checks is past its rule (decision 174). */
export { STALE_LIST_REASON } from "scrub-service/domain";

/**
 * The freshness of the lists the lookup's suppression type checks, from the answer's list rows (their registry
 * dates), as of `now`; a list never loaded or holding no numbers is not checked (as scrubs skip it).
 */
export function lookupFreshness(answer: LookupAnswer, type: SuppressionTypeName, now: Date): ListFreshness[] {
  const checked = new Set<string>(listTypeOfSuppression(type).includes);
  return answer.lists
    .filter((l) => l.kind !== "container" && checked.has(l.kind) && (l.kind === "dnc" || (l.size ?? 0) > 0))
    .map((l) => listFreshness(l.kind, l.registryDate ?? null, now))
    .filter((f): f is ListFreshness => f !== null);
}

/**
 * The lookup's `at` (decision 174): an instant means "for calls then", so not before now (less the clock skew)
 * nor after the checked lists' "valid for calls until": 422 on the field otherwise.
 */
export function checkLookupInstant(atMs: number | undefined, lists: readonly ListFreshness[], now: Date): void {
  if (atMs === undefined) return;
  const problem = evaluationInstantProblem(atMs, { now, lists });
  if (problem) throw fieldError("at", problem);
}

/** Asks the scrub service; any failure (store down, stale copy, service unreachable) is a 503, never "not listed". */
export async function lookUp(service: ScrubService, userId: string, numbers: number[]): Promise<LookupAnswer> {
  const stopTimer = metrics().lookupDuration.startTimer();
  try {
    return await service.lookup({ userId, numbers });
  } catch (e) {
    if (e instanceof LookupBusyError) {
      // the deadline ran out on a late event loop, not on the store: say so, and ask for a short wait
      metrics().lookupUnavailable.inc({ reason: "busy" });
      console.warn(`[lookup] failed closed, server busy: ${e.message}`);
      throw new ApiError(503, "service_unavailable", lookupBusyMessage(e.lateMs), undefined, { "Retry-After": String(LOOKUP_BUSY_RETRY_AFTER_S) });
    }
    if (e instanceof ListStoreError) {
      metrics().listStoreErrors.inc();
      metrics().lookupUnavailable.inc({ reason: "store" });
      console.warn(`[lookup] failed closed: ${e.message} (check \`npm run lists -- status\`)`);
    } else {
      metrics().lookupUnavailable.inc({ reason: "error" });
      console.error("[lookup] failed closed:", e);
    }
    throw new ApiError(503, "service_unavailable", LOOKUP_UNAVAILABLE, undefined, { "Retry-After": "30" });
  } finally {
    stopTimer();
  }
}

/** The call history's read (or the reservation) failed: 503, never "callable" (decision 187). ApiErrors (the usage's) pass. */
function callsUnavailable(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  metrics().lookupUnavailable.inc({ reason: "calls" });
  console.error("[lookup] failed closed, call history unreadable:", e);
  return new ApiError(503, "service_unavailable", LOOKUP_CALLS_UNAVAILABLE, undefined, { "Retry-After": "30" });
}

/**
 * A read lookup answered: the lists asked at their current versions, `at` held to "now … the checked lists' validity"
 * (decision 174), the container and the exemption records resolved, the numbers' call history read (decision 187),
 * then the engine's one decision per number formatted by lookupResponseJson (decision 182). `recordUsage` (the
 * route's) runs once everything was read, before the answer is sent; with `reserve` inside the reservation's
 * transaction, so a refused usage reserves nothing. `clock`: the request's "now" (default: read once the lists
 * answered, as before; the batch/lookup property sets it).
 *
 * The counts come from the live call counters beside the lists when there are some (decision 196: Redis, Redis Cluster,
 * PGlite's process), from the database otherwise and for the numbers the counters cannot vouch for (lost, rebuilding).
 *
 * With `reserve`: on the counters, a compare-and-set per number of the attempt decided on the counts read (read again
 * and decided again when another writer took the number meanwhile), then the attempts written to the database
 * (decision 196); without counters, one transaction locks each (owner, number), reads the counts under the locks and
 * records the attempts (decision 187). Either way the decision is this answer's, and only a number not suppressed and
 * callable now is reserved; the answer says `reserved` and `reservationId`. A history that cannot be read is a 503.
 */
export async function answerLookup(
  asked: {
    db: ApiContext["db"];
    service: ScrubService;
    userId: string;
    containerId: number | null | undefined;
    /** The live call counters (decision 196); default: those registered for `db` (none: the database is read). */
    counters?: CallCounterStore | null;
  },
  input: LookupInput,
  clock?: Date,
  /** `within`: the reservation's transaction, which the usage's reads must go through (PGlite has one connection). */
  hooks: { recordUsage?: (within?: ApiContext["db"]) => Promise<void> } = {},
): Promise<AnsweredLookup> {
  const { entries } = input;
  const calls = input.calls ?? DEFAULT_LOOKUP_CALLS;
  const counters = asked.counters !== undefined ? asked.counters : callCountersOf(asked.db);
  const answer = await lookUp(asked.service, asked.userId, entries.distinct);
  const now = clock ?? new Date();
  // The checked lists' freshness (decision 174): `at` must lie between now and their "valid for calls until";
  // a list past its rule is named in `stale_lists` and makes no number callable on its word.
  const freshness = lookupFreshness(answer, input.suppressionType, now);
  checkLookupInstant(input.at, freshness, now);
  let containerId: number | null = null;
  if (input.containerId != null) {
    if (!answer.lists.some((l) => l.kind === "container" && l.id === input.containerId)) throw notFound("Container");
    containerId = input.containerId;
  } else if (input.containerId === undefined && asked.containerId != null && answer.lists.some((l) => l.id === asked.containerId)) {
    containerId = asked.containerId; // the integration's default container, while it still exists
  }
  // the key owner's exemption list, read at one version for the numbers asked about (decision 161)
  let exemptions = null;
  if (input.exemptionListId != null) {
    const found = await exemptionsOfNumbers(asked.db, { id: input.exemptionListId, userId: asked.userId, numbers: entries.distinct });
    if (!found) throw notFound("Exemption list");
    exemptions = { id: found.list.id, version: found.list.version, records: found.records };
  }
  // the emergency no-call periods at the instant (decision 181), read at most every few seconds
  const callingTable = await lookupCallingTable(asked.db, input.at ?? now.getTime());
  const options = {
    suppressionType: input.suppressionType,
    containerId,
    exemptions,
    staleLists: staleListsOf(freshness),
    callingTable,
  };
  if (!calls.reserve) {
    const atMs = input.at ?? now.getTime();
    let history: Map<number, HistoryRecord[]>;
    try {
      // the live counters (decision 196), or the database for what they cannot vouch for
      history = await liveHistoryOf(asked.db, counters, asked.userId, entries.distinct, atMs - LONGEST_CAP_WINDOW_MS, calls);
    } catch (e) {
      throw callsUnavailable(e);
    }
    await hooks.recordUsage?.();
    // with a clock, the answer is at that instant (every chunk of one compatibility request alike, issue #48)
    const at = input.at ?? clock?.getTime();
    return {
      json: () => lookupResponseJson(entries, answer, { ...options, at, calls: { ask: calls, history } }),
      relationships: () => relationshipsAt(exemptions?.records, at ?? Date.now()),
    };
  }
  let decider: LookupDecider | null = null;
  let reserved: Map<number, string>;
  try {
    // on the counters (compare-and-set per number, decision 196) or, while they cannot vouch, the database's locks
    const r = await reserveLive(asked.db, counters, asked.userId, entries.distinct, {
      kind: { subject: calls.subject, channel: calls.channel, debtId: calls.debtId },
      windowMs: LONGEST_CAP_WINDOW_MS,
      // the decision on the counts read under the locks, at the instant they were read
      grant: (history, nowMs) => {
        const d = (decider = lookupDecider(entries, answer, { ...options, at: nowMs, calls: { ask: calls, history } }));
        return entries.distinct.filter((_, k) => d.grantable(k));
      },
      beforeCommit: hooks.recordUsage,
      now: clock ? () => clock.getTime() : undefined,
    });
    reserved = r.ids;
  } catch (e) {
    throw callsUnavailable(e);
  }
  const d = decider!;
  return { json: () => d.json(reserved), relationships: () => relationshipsAt(exemptions?.records, now.getTime()) };
}

/** A lookup answered: its JSON bytes, and which numbers hold a relationship or consent that applies at its instant. */
export interface AnsweredLookup {
  json: () => Buffer;
  /**
   * The numbers (distinct, of the request's exemption list) whose record would clear a federal do-not-call listing at
   * the answer's instant, with the record's basis: the one decision asked about a federal hit (decision 182), for
   * answers that name a valid relationship on a number no list holds (the DNCScrub-compatible `E`, issue #48).
   */
  relationships: () => Map<number, string>;
}

const FEDERAL_ONLY = decisionLists(["dnc"]);

function relationshipsAt(records: Map<number, ExemptionRow> | undefined, atMs: number): Map<number, string> {
  const out = new Map<number, string>();
  for (const [n, r] of records ?? []) {
    const d = decideNumber({ code: n, hits: 1, record: { basis: r.basis, day: r.day } }, { lists: FEDERAL_ONLY, atMs });
    if (d.exempt) out.set(n, d.exempt.basis);
  }
  return out;
}

/** Bytes of a JSON answer, written into one growing buffer. */
class JsonBytes {
  buf: Buffer;
  at = 0;
  constructor(expected = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(expected);
  }
  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
  }
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }
  byte(c: number): void {
    this.room(1);
    this.buf[this.at++] = c;
  }
  /** A string written as it is (already JSON). */
  raw(s: string): void {
    this.room(s.length * 3);
    this.at += this.buf.write(s, this.at, "utf8");
  }
  /** bytes [s, e) of `from` (a loop: for a few bytes cheaper than TypedArray.set). */
  range(from: Uint8Array, s: number, e: number): void {
    this.room(e - s);
    const b = this.buf;
    let o = this.at;
    for (let k = s; k < e; k++) b[o++] = from[k];
    this.at = o;
  }
  /** A 10-digit number as a JSON string. */
  digits(x: number): void {
    this.room(12);
    const b = this.buf;
    const o = this.at;
    b[o] = 34;
    let hi = Math.floor(x / 100_000);
    let lo = x - hi * 100_000;
    for (let k = 5; k >= 1; k--) {
      b[o + k] = 48 + (hi % 10);
      hi = (hi / 10) | 0;
      b[o + 5 + k] = 48 + (lo % 10);
      lo = (lo / 10) | 0;
    }
    b[o + 11] = 34;
    this.at = o + 12;
  }
  done(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}

const KIND_INDEX = Object.fromEntries(NUMBER_KINDS.map((k, i) => [k, i])) as Record<NumberKind, number>;

/** A valid number's part after its digits, up to its lists: the same for every number of an area code and kind. */
const PLACE_PARTS = new Map<number, Buffer>();
function placePart(c: number): Buffer {
  const npa = Math.floor(c / 10_000_000);
  const kind = numberKind(c);
  const key = npa * 16 + KIND_INDEX[kind];
  let part = PLACE_PARTS.get(key);
  if (part === undefined) {
    part = Buffer.from(
      `,"valid":true,"reason":null,"message":null,"kind":${JSON.stringify(kind)},"region":${JSON.stringify(numberRegion(c))},"state":${JSON.stringify(
        stateOfAreaCode(npa),
      )},`,
    );
    PLACE_PARTS.set(key, part);
  }
  return part;
}

/**
 * A valid number's calling answer (decisions 131, 180): `"timeZones":[…],"callableNow":…,"nextCallAt":…,"nextCallLocal":…,"callingNote":…,`
 * per calling class and instant, from the engine's evaluateClass (the scrub's good.csv prints the same answer and
 * note). A number without a time zone answers the strictest reading across every US time zone, `timeZones` empty.
 * The live lookup asks at "now" (a new second every second): answers are kept for the current second only, so a
 * class is evaluated at most once a second however many requests ask.
 */
let callingSecond = -1;
let callingTableSeen: object | null = null;
const CALLING_PARTS = new Map<number, { part: Buffer; callableNow: boolean }>();

/** The number's calling class at the instant: an emergency period's class unless its exemption record meets the statute's own exceptions (decision 181). */
function callingClassIndex(c: number, atMs: number, table: CallingClassTableWith, record?: ExemptionRow): number {
  let k = callingClassOf(table.byExchange, c);
  if (record && table.baseOf && table.baseOf[k] !== k) {
    const state = stateOfClass(table.classes[k]);
    if (state && emergencyExemptionApplies(state, record.basis, record.day, atMs)) k = table.baseOf[k];
  }
  return k;
}

function callingJson(zones: readonly string[], callableNow: boolean, nextCallAt: number, nextCallLocal: string | undefined, note: string): Buffer {
  return Buffer.from(
    `"timeZones":${JSON.stringify(zones)},"callableNow":${callableNow},"nextCallAt":"${isoSecond(nextCallAt)}",` +
      `"nextCallLocal":${nextCallLocal ? JSON.stringify(nextCallLocal) : "null"},"callingNote":${JSON.stringify(note)},`,
  );
}

function callingPart(
  c: number,
  atMs: number,
  table: CallingClassTableWith = callingClassTable(),
  record?: ExemptionRow,
): { part: Buffer; callableNow: boolean } {
  const k = callingClassIndex(c, atMs, table, record);
  const second = Math.floor(atMs / 1000);
  if (second !== callingSecond || table !== callingTableSeen) {
    CALLING_PARTS.clear();
    callingSecond = second;
    callingTableSeen = table;
  }
  let part = CALLING_PARTS.get(k);
  if (part === undefined) {
    const cls = table.classes[k];
    const { answer: a, note, nextCallLocal } = evaluateClass(cls, second * 1000);
    part = { part: callingJson(cls.zones, a.callableNow, a.nextCallAt, nextCallLocal, note), callableNow: a.callableNow };
    CALLING_PARTS.set(k, part);
  }
  return part;
}

/**
 * A valid number's calling answer with its call history (decision 187): the class's answer (callingPart) unless a
 * frequency cap of the request's purpose holds the next call; then the one decision's `callingWithCaps` (not callable
 * now, next at the cap's lift moved to a lawful hour, the note naming the cap), written for this number alone.
 */
function callingWithHistory(
  c: number,
  atMs: number,
  table: CallingClassTableWith,
  record: ExemptionRow | undefined,
  ask: LookupCalls,
  records: readonly HistoryRecord[] | undefined,
): { part: Buffer; callableNow: boolean } {
  const base = callingPart(c, atMs, table, record);
  if (!records || records.length === 0) return base;
  const second = Math.floor(atMs / 1000) * 1000;
  const cls = table.classes[callingClassIndex(c, atMs, table, record)];
  // the engine's one piece for a number with history (the batch scrub asks the same, decision 191)
  const capped = cappedCalling(cls, second, {
    state: stateOfAreaCode(Math.floor(c / 10_000_000)),
    purpose: ask.purpose,
    subject: ask.subject,
    debtId: ask.debtId,
    channel: ask.channel,
    records,
    record: record ? { basis: EXEMPTION_BASES[record.basis], day: record.day } : null,
  });
  if (capped === null) return base;
  const d = capped.calling;
  return { part: callingJson(cls.zones, d.callableNow, d.nextCallAt, d.nextCallLocal, d.note), callableNow: d.callableNow };
}

type CallingClassTableWith = ReturnType<typeof callingClassTable> & { baseOf?: Uint16Array };

/** The answer's `emergency_periods` (decision 181). */
function emergencyPeriodsJson(table: EmergencyClassTable | undefined) {
  return (table?.emergencyPeriods ?? []).map((p) => ({
    id: p.id,
    states: p.states,
    area_codes: p.areaCodes,
    first_day: p.firstDay,
    last_day: p.lastDay,
    authority: p.authority,
    source_url: p.sourceUrl,
  }));
}

/** An invalid entry's part after `"number":`, per reason code: the one decision's reason and words (decision 182). */
const INVALID_PARTS = new Map<number, Buffer>();
const NO_LISTS = { lists: decisionLists([]), atMs: 0 };
function invalidPart(c: number): Buffer {
  let part = INVALID_PARTS.get(c);
  if (part === undefined) {
    const d = decideNumber({ code: c, hits: 0, record: null }, NO_LISTS);
    part = Buffer.from(
      `null,"valid":false,"reason":${JSON.stringify(d.reason)},"message":${JSON.stringify(
        d.words,
      )},"kind":null,"region":null,"state":null,"timeZones":[],"callableNow":null,"nextCallAt":null,"nextCallLocal":null,"callingNote":null,"lists":[],"containers":[],"suppressed":false,"suppressed_by":null}`,
    );
    if (INVALID_PARTS.size < 100_000) INVALID_PARTS.set(c, part);
  }
  return part;
}

/** What the answer needs besides the entries and the lists' answer. */
export interface LookupJsonInput {
  suppressionType: SuppressionTypeName;
  containerId: number | null;
  at?: number;
  /** The exemption list applied: its id and version, and the records of the numbers asked about (decision 161). */
  exemptions?: { id: number; version: number; records: Map<number, ExemptionRow> } | null;
  /**
   * The checked lists past their freshness rule (decision 174): named in `stale_lists`, and while there is one a
   * number no fresh list suppresses is not callable on the word of a stale one: `suppressed_by: "stale_list"`.
   */
  staleLists?: StaleList[];
  /** The calling classes with the emergency no-call periods at `at` applied (decision 181); default: none. */
  callingTable?: EmergencyClassTable;
  /**
   * The calls asked about and the numbers' records since the longest cap window before `at` (decision 187): each
   * valid number's `callsLast24h`/`callsLast7d`, and its calling answer held by a cap. Absent: neither.
   */
  calls?: { ask: LookupCalls; history: Map<number, HistoryRecord[]> };
}

/** The answer's JSON bytes (see lookupDecider): `reserved` gives each reserved number's record id when the request reserved. */
export function lookupResponseJson(entries: ParsedEntries, answer: LookupAnswer, input: LookupJsonInput): Buffer {
  return lookupDecider(entries, answer, input).json();
}

interface LookupDecider {
  /** Whether distinct number k may be reserved: not suppressed, and callable now (hours, emergency periods, caps). */
  grantable(k: number): boolean;
  json(reserved?: Map<number, string>): Buffer;
}

const HOUR_MS = 3_600_000;

/**
 * The answer's decisions and its JSON bytes: one result per entry, in order, and the list versions that were read.
 * Written by hand into one buffer (for 1,000 entries JSON.stringify of one object per entry cost more than the rest
 * of the request): the parts that repeat are encoded once: an invalid reason and an area code's kind/region/state
 * once per process, a combination of lists once per request. The shape is the OpenAPI document's LookupResult; tests
 * parse it.
 */
function lookupDecider({ codes, at, distinct, echo, echoStarts, echoEnds }: ParsedEntries, answer: LookupAnswer, input: LookupJsonInput): LookupDecider {
  const staleLists = input.staleLists ?? [];
  const atMs = input.at ?? Date.now();
  const table: CallingClassTableWith = input.callingTable ?? callingClassTable();
  const calls = input.calls ?? null;
  const admin = answer.lists.filter((l) => l.kind !== "container");
  const containers = answer.lists.filter((l) => l.kind === "container");
  const ordered = [...admin, ...containers];
  // which lists (indexes into `ordered`) hold each distinct number; most hold none
  const onLists: (number[] | undefined)[] = new Array(distinct.length);
  ordered.forEach((l, li) => {
    for (const h of l.hits) (onLists[h] ??= []).push(li);
  });
  // the answer for each number is the engine's one decision (decision 182), formatted here: the lists in the order
  // that gives the reason (the chosen container first, then the suppression type's lists, as a scrub checks them)
  // The owner's internal do-not-call list (decision 195) is checked whatever container is chosen, first in the order
  const internal = containers.find((l) => l.internal) ?? null;
  const withContainer = input.containerId != null && input.containerId !== internal?.id;
  const decision = {
    lists: decisionLists(decisionOrder(withContainer, listTypeOfSuppression(input.suppressionType).includes, internal !== null)),
    atMs,
    staleLists: staleLists.length > 0,
  };
  // each list of the answer (index into `ordered`): its bit in the decision's lists, 0 when not checked
  const bitOf = ordered.map((l) => {
    const k =
      l.kind !== "container"
        ? decision.lists.kinds.indexOf(l.kind)
        : l.internal
          ? decision.lists.kinds.indexOf(INTERNAL_DNC_REASON.reason)
          : withContainer && l.id === input.containerId
            ? decision.lists.kinds.indexOf(CONTAINER_REASON.reason)
            : -1;
    return k < 0 ? 0 : 1 << k;
  });
  const exemptions = input.exemptions ?? null;
  const listsPart = new Map<string, { part: Buffer; suppressed: boolean }>();
  /** A combination of lists (and, with exemptions, the number's record) answered once per request. */
  const listsJson = (c: number, held: number[] | undefined, record: ExemptionRow | undefined): { part: Buffer; suppressed: boolean } => {
    const key = (held ? held.join(",") : "") + (record ? `|${record.basis}|${record.day}` : "");
    let part = listsPart.get(key);
    if (part === undefined) {
      const lists = (held ?? []).filter((li) => li < admin.length).map((li) => admin[li].kind as AdminListKind);
      const inContainers = (held ?? []).filter((li) => li >= admin.length).map((li) => ({ id: ordered[li].id, name: ordered[li].name }));
      let hits = 0;
      for (const li of held ?? []) hits |= bitOf[li];
      const d = decideNumber({ code: c, hits, record: record ? { basis: record.basis, day: record.day } : null }, decision);
      // `exempt` only when an exemption is what lets the number be called
      const exempt = d.exempt
        ? { basis: d.exempt.basis, date: isoDateOfDay(d.exempt.day), until: d.exempt.untilDay === null ? null : isoDateOfDay(d.exempt.untilDay) }
        : null;
      part = {
        part: Buffer.from(
          `"lists":${JSON.stringify(lists)},"containers":${JSON.stringify(inContainers)},"suppressed":${d.reason !== null},"suppressed_by":${JSON.stringify(
            d.reason,
          )}` +
            // `exemptionNote`: why the number's record did not let it be called (bad.csv's `exemption` cell; decision 184)
            (exemptions ? `,"exempt":${JSON.stringify(exempt)},"exemptionNote":${JSON.stringify(d.notApplied)}}` : "}"),
        ),
        suppressed: d.reason !== null,
      };
      listsPart.set(key, part);
    }
    return part;
  };
  /** Distinct number k's calling answer, with its caps when the history was read (decision 187). */
  const callingOf = (k: number) => {
    const c = distinct[k];
    const record = exemptions?.records.get(c);
    return calls ? callingWithHistory(c, atMs, table, record, calls.ask, calls.history.get(c)) : callingPart(c, atMs, table, record);
  };
  /** `"callsLast24h":n,"callsLast7d":n,`: every record of the number after the window's start (reservations included). */
  const countsJson = (k: number): string => {
    const records = calls!.history.get(distinct[k]) ?? [];
    let day = 0;
    let week = 0;
    for (const r of records) {
      if (r.atMs > atMs - 24 * HOUR_MS) day++;
      if (r.atMs > atMs - 7 * 24 * HOUR_MS) week++;
    }
    return `"callsLast24h":${day},"callsLast7d":${week},`;
  };
  return {
    grantable(k) {
      const c = distinct[k];
      return !listsJson(c, onLists[k], exemptions?.records.get(c)).suppressed && callingOf(k).callableNow;
    },
    json(reserved) {
      const out = new JsonBytes(codes.length * 200);
      const inputHead = Buffer.from('{"input":');
      const numberHead = Buffer.from(',"number":');
      const invalidTail = (calls ? ',"callsLast24h":null,"callsLast7d":null' : "") + (reserved ? ',"reserved":false,"reservationId":null' : "");
      out.raw('{"data":[');
      for (let i = 0; i < codes.length; i++) {
        if (i > 0) out.byte(44); // ,
        out.bytes(inputHead);
        out.range(echo, echoStarts[i], echoEnds[i]);
        out.bytes(numberHead);
        const c = codes[i];
        if (c < 0) {
          const part = invalidPart(c);
          if (exemptions || invalidTail) {
            out.bytes(part.subarray(0, part.length - 1));
            out.raw(`${exemptions ? ',"exempt":null,"exemptionNote":null' : ""}${invalidTail}}`);
          } else out.bytes(part);
          continue;
        }
        const k = at[i];
        out.digits(c);
        out.bytes(placePart(c));
        out.bytes(callingOf(k).part);
        if (calls) out.raw(countsJson(k));
        if (reserved) {
          const id = reserved.get(c);
          out.raw(id === undefined ? '"reserved":false,"reservationId":null,' : `"reserved":true,"reservationId":${JSON.stringify(id)},`);
        }
        out.bytes(listsJson(c, onLists[k], exemptions?.records.get(c)).part);
      }
      out.raw(`],"suppression_type":${JSON.stringify(input.suppressionType)},"container_id":${JSON.stringify(input.containerId)}`);
      out.raw(`,"at":"${isoSecond(atMs)}","calling_rules_version":${JSON.stringify(CALLING_RULES_VERSION)}`);
      if (calls) {
        const { purpose, subject, debtId, channel } = calls.ask;
        out.raw(
          `,"purpose":${JSON.stringify(purpose)},"subject":${JSON.stringify(subject)},"debt_id":${JSON.stringify(debtId)},"channel":${JSON.stringify(channel)}`,
        );
        out.raw(`,"caps_version":${JSON.stringify(CAPS_VERSION)}`);
      }
      out.raw(`,"lists":${JSON.stringify(admin.map((l) => ({ kind: l.kind, version: l.version })))}`);
      out.raw(`,"containers":${JSON.stringify(containers.map((c) => ({ id: c.id, name: c.name, version: c.version })))}`);
      out.raw(
        `,"stale_lists":${JSON.stringify(
          staleLists.map((l) => ({ kind: l.kind, registry_date: l.registryDate.slice(0, 10), age_days: l.ageDays, rule_days: l.ruleDays })),
        )}`,
      );
      out.raw(`,"emergency_periods":${JSON.stringify(emergencyPeriodsJson(input.callingTable))}`);
      if (exemptions) out.raw(`,"exemption_list":{"id":${exemptions.id},"version":${exemptions.version}}`);
      out.raw("}");
      return out.done();
    },
  };
}
