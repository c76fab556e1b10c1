import { z } from "zod";
import { ApiError, type ApiContext } from "./api.server";
import { readJsonCapped } from "~/intake/api-body.server";
import { isUnlimitedRole, findActivePeriod, NoPlanError } from "~/models/usage.server";
import { parsePhone, stateOfAreaCode, type ScrubService } from "~/utils/scrub.server";
import { ListStoreError, MAX_LOOKUP_NUMBERS, type LookupAnswer } from "../../scrub-service/src/service";
import {
  CONTAINER_REASON,
  LIST_TYPES,
  SUPPRESSION_TYPE_NAMES,
  listTypeOfSuppression,
  suppressionTypeChoices,
  type AdminListKind,
  type SuppressionTypeName,
} from "../../scrub-service/src/list-types";

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

/** The suppression type whose lists cover every admin list (the default: a dialer wants every list checked). */
const FULLEST_TYPE: SuppressionTypeName = [...LIST_TYPES].sort((a, b) => b.includes.length - a.includes.length)[0].suppressionType;

export const lookupSchema = z.object({
  numbers: z
    .array(
      z.union([z.string().max(40, "Each number must be at most 40 characters"), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)]),
      { error: "numbers must be a list of phone numbers (strings or integers)" },
    )
    .min(1, "Send at least one number")
    .max(MAX_LOOKUP_NUMBERS, `Send at most ${MAX_LOOKUP_NUMBERS.toLocaleString("en-US")} numbers per request; submit a scrub for more`),
  suppression_type: z.enum(SUPPRESSION_TYPE_NAMES, { error: `suppression_type must be ${suppressionTypeChoices()}` }).default(FULLEST_TYPE),
  container_id: z.number({ error: "container_id must be a container id" }).int().positive().max(2_147_483_647).nullable().optional(),
});

export type LookupRequest = z.infer<typeof lookupSchema>;

/**
 * The plan gate, before the body is read, exactly as for scrubs: no plan → 403 no_plan, a plan without API
 * access → 403 api_not_in_plan. One query (the role came with the key); the limit is checked when the
 * usage is recorded.
 */
export async function requireLookupAccess(api: ApiContext): Promise<void> {
  if (isUnlimitedRole(api.role)) return;
  const period = await findActivePeriod(api.db, api.userId);
  if (!period) throw new ApiError(403, "no_plan", new NoPlanError("suppression").message);
  if (!period.apiAccess) {
    throw new ApiError(403, "api_not_in_plan", `Your ${period.planName} plan does not include API access. Upgrade under Pricing to use the API.`);
  }
}

/** The JSON body, bounded before it is parsed: 415 for another type, 413 past the cap, 400 for bad JSON. */
export async function readLookupBody(request: Request): Promise<unknown> {
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  if (!type.startsWith("application/json")) throw new ApiError(415, "unsupported_media_type", "Send the numbers as application/json: { \"numbers\": [...] }.");
  return readJsonCapped(
    request,
    MAX_LOOKUP_BODY_BYTES,
    `The request body is too large. The limit is ${MAX_LOOKUP_BODY_BYTES} bytes (${MAX_LOOKUP_NUMBERS} numbers).`,
  );
}

export interface ParsedEntries {
  parsed: ReturnType<typeof parsePhone>[];
  /** Distinct valid numbers, what the service looks up. */
  distinct: number[];
}

export function parseEntries(entries: (string | number)[]): ParsedEntries {
  const parsed = entries.map((e) => parsePhone(String(e)));
  const seen = new Set<number>();
  for (const p of parsed) if (p.ok) seen.add(p.number);
  return { parsed, distinct: [...seen] };
}

/** Asks the scrub service; any failure (store down, stale copy, service unreachable) is a 503, never "not listed". */
export async function lookUp(service: ScrubService, userId: string, numbers: number[]): Promise<LookupAnswer> {
  try {
    return await service.lookup({ userId, numbers });
  } catch (e) {
    if (e instanceof ListStoreError) console.warn(`[lookup] failed closed: ${e.message} (check \`npm run lists -- status\`)`);
    else console.error("[lookup] failed closed:", e);
    throw new ApiError(503, "service_unavailable", LOOKUP_UNAVAILABLE, undefined, { "Retry-After": "30" });
  }
}

/** The answer's JSON: one result per entry, in order, and the list versions that were read. */
export function lookupResponse(entries: (string | number)[], { parsed, distinct }: ParsedEntries, answer: LookupAnswer, input: { suppressionType: SuppressionTypeName; containerId: number | null }) {
  const indexOf = new Map<number, number>();
  distinct.forEach((n, i) => indexOf.set(n, i));
  const admin = answer.lists.filter((l) => l.kind !== "container");
  const containers = answer.lists.filter((l) => l.kind === "container");
  const hitSet = (hits: number[]) => new Set(hits);
  const adminHits = admin.map((l) => ({ kind: l.kind as AdminListKind, on: hitSet(l.hits) }));
  const containerHits = containers.map((l) => ({ id: l.id, name: l.name, on: hitSet(l.hits) }));
  const checked = listTypeOfSuppression(input.suppressionType).includes;
  const results = entries.map((entry, i) => {
    const p = parsed[i];
    if (!p.ok) {
      return { input: entry, number: null, valid: false, reason: p.reason, message: p.message, kind: null, region: null, state: null, lists: [], containers: [], suppressed: false, suppressed_by: null };
    }
    const at = indexOf.get(p.number)!;
    const lists = adminHits.filter((l) => l.on.has(at)).map((l) => l.kind);
    const inContainers = containerHits.filter((c) => c.on.has(at)).map((c) => ({ id: c.id, name: c.name }));
    const byList = checked.find((k) => lists.includes(k));
    const byContainer = input.containerId != null && inContainers.some((c) => c.id === input.containerId);
    const suppressedBy = byList ?? (byContainer ? CONTAINER_REASON.reason : null);
    return {
      input: entry,
      number: p.digits,
      valid: true,
      reason: null,
      message: null,
      kind: p.kind,
      region: p.region,
      state: stateOfAreaCode(Math.floor(p.number / 10_000_000)),
      lists,
      containers: inContainers,
      suppressed: suppressedBy !== null,
      suppressed_by: suppressedBy,
    };
  });
  return {
    data: results,
    suppression_type: input.suppressionType,
    container_id: input.containerId,
    lists: admin.map((l) => ({ kind: l.kind, version: l.version })),
    containers: containers.map((c) => ({ id: c.id, name: c.name, version: c.version })),
  };
}
