import type { Kysely } from "kysely";
import { addLogContext } from "~/utils/log.server";
import type { Database, RoleName } from "db/schema";
import { getDb } from "~/utils/db.server";
import { findApiKey, findLookupKey, touchApiKey, type ApiKeyPeriod } from "~/models/integration.server";
import { hitRateLimit, type RateLimitResult } from "./rate-limit.server";
import { lookupRateLimiter } from "./lookup-rate-limit.server";
import type { ApiErrorCode } from "./error-codes";
import { CodedError, ERROR_CATALOGUE, type ErrorEntry } from "scrub-service/domain";

/*
 * The public API's plumbing: bearer-key authentication, the per-key rate limit, and JSON errors of the form
 * { "error": { "code": "rate_limited", "message": "…" } }. Codes are stable (clients branch on them);
 * messages are for people. See docs/decisions/050-public-api.md.
 */

export { API_ERROR_CODES, type ApiErrorCode } from "./error-codes";

export class ApiError extends Error {
  constructor(
    public status: number,
    public code: ApiErrorCode,
    message: string,
    public details?: unknown,
    public headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export function errorResponse(err: ApiError, extraHeaders?: Headers): Response {
  const headers = new Headers(extraHeaders);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  for (const [k, v] of Object.entries(err.headers ?? {})) headers.set(k, v);
  const body: { error: { code: string; message: string; details?: unknown } } = {
    error: { code: err.code, message: err.message },
  };
  if (err.details !== undefined) body.error.details = err.details;
  return new Response(JSON.stringify(body), { status: err.status, headers });
}

export const notFound = (what = "Resource") => new ApiError(404, "not_found", `${what} not found.`);

/** 422 validation_failed on one field: `field: message`, and the field in `details`. */
export function fieldError(field: string, message: string): ApiError {
  return new ApiError(422, "validation_failed", `${field}: ${message}`, [{ field, message }]);
}

/** One bad record of a batch body: its index in the batch (−1 for the body as a whole), the field and why. */
export interface RecordProblem {
  index: number;
  field: string;
  message: string;
}

/**
 * 422 for a batch of records refused all or nothing (calls, opt-outs): every bad record named in `details` as
 * `<batch>[i].<field>`, the message naming the first three. `single`: the body was one record, not a batch.
 */
export function recordsRefusal(batch: string, errors: readonly RecordProblem[], single = false): ApiError {
  const details = errors.map((e) =>
    e.index < 0 || single ? { field: e.field, message: e.message } : { index: e.index, field: `${batch}[${e.index}].${e.field}`, message: e.message },
  );
  const head = errors.length === 1 ? details[0] : null;
  const message = head
    ? `${head.field}: ${head.message}`
    : `${errors.length} problems; nothing was recorded (each is in details): ${details
        .slice(0, 3)
        .map((d) => `${d.field}: ${d.message}`)
        .join("; ")}${errors.length > 3 ? "; …" : ""}`;
  return new ApiError(422, "validation_failed", message, details);
}

/**
 * The API's one error mapper (decision 194): an ApiError as it is; an error of the catalogue by its entry (status,
 * stable code, details, Retry-After; an input error on a field as `fieldError`); anything else null (the caller
 * logs it and answers 500).
 */
export function apiErrorOf(e: unknown): ApiError | null {
  if (e instanceof ApiError) return e;
  if (!(e instanceof CodedError)) return null;
  const entry: ErrorEntry = ERROR_CATALOGUE[e.code];
  const { field, fieldText } = e.options;
  if (entry.api === "validation_failed" && field) return fieldError(field, fieldText ?? e.message);
  return new ApiError(entry.http, entry.api, e.message, e.apiDetails, entry.retryAfter ? { "Retry-After": String(entry.retryAfter) } : undefined);
}

export interface ApiContext {
  db: Kysely<Database>;
  keyId: string;
  userId: string;
  role: RoleName;
  integrationId: string;
  /** The integration's default container (used when a scrub names none). */
  containerId: number | null;
  rate: RateLimitResult;
  /** The owner's current plan period, read with the key (the lookup budget only; undefined elsewhere). */
  period?: ApiKeyPeriod | null;
}

/**
 * Which request budget an endpoint draws on: the API's 1000 requests per key and hour in PostgreSQL (decision
 * 051), or the live lookup's per-second buckets in memory (decision 111), whose key query also reads the plan.
 */
export type ApiBudget = "hourly" | "lookup";

export function rateHeaders(rate: RateLimitResult): Headers {
  const h = new Headers();
  h.set("X-RateLimit-Limit", String(rate.limit));
  h.set("X-RateLimit-Remaining", String(rate.remaining));
  h.set("X-RateLimit-Reset", String(rate.reset));
  h.set("X-RateLimit-Window", String(rate.windowSeconds));
  if (rate.limited) h.set("Retry-After", String(rate.retryAfter));
  return h;
}

/** When this process last marked each key used: touchApiKey writes at most once a minute, so skip its query between. */
const touchedAt = new Map<string, number>();

/** Authenticates the bearer key (one query: key, integration, owner; the lookup's at most once a second per key), counts the request against its budget. */
export async function authenticateApi(request: Request, budget: ApiBudget = "hourly"): Promise<ApiContext> {
  const header = request.headers.get("Authorization") ?? "";
  const match = header.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match) {
    throw new ApiError(401, "missing_api_key", "Send your API key as 'Authorization: Bearer <key>'.", undefined, {
      "WWW-Authenticate": 'Bearer realm="api"',
    });
  }
  return authenticateKey(match[1], budget);
}

/**
 * The key itself, however it was presented (a bearer header, or the dialer compatibility layer's `loginId` / `key`,
 * issue #48): the one way our API keys are checked, counted against `budget`.
 */
export async function authenticateKey(presented: string, budget: ApiBudget = "hourly"): Promise<ApiContext> {
  const db = await getDb();
  const withPeriod = budget === "lookup" ? await findLookupKey(db, presented) : undefined;
  const key = budget === "lookup" ? withPeriod : await findApiKey(db, presented);
  if (!key) {
    throw new ApiError(401, "invalid_api_key", "The API key is not valid.", undefined, {
      "WWW-Authenticate": 'Bearer realm="api", error="invalid_token"',
    });
  }
  if (key.revoked) {
    throw new ApiError(401, "api_key_revoked", "The API key has been revoked.", undefined, {
      "WWW-Authenticate": 'Bearer realm="api", error="invalid_token"',
    });
  }
  if (!key.ownerActive) throw new ApiError(403, "account_disabled", "The account that owns this API key is not active.");
  const buckets = [`key:${key.keyId}`];
  if (key.rateLimitEnabled) buckets.push(`integration:${key.integrationId}`);
  const rate = budget === "lookup" ? lookupRateLimiter.take(buckets) : await hitRateLimit(db, buckets);
  if (rate.limited) {
    const h = rateHeaders(rate);
    throw new ApiError(
      429,
      "rate_limited",
      budget === "lookup"
        ? `Rate limit of ${rate.limit} lookup requests per second exceeded. Retry after ${rate.retryAfter} second.`
        : `Rate limit of ${rate.limit} requests per hour exceeded. Retry after ${rate.retryAfter} seconds.`,
      undefined,
      Object.fromEntries(h.entries()),
    );
  }
  if ((touchedAt.get(key.keyId) ?? 0) < Date.now() - 60_000) {
    await touchApiKey(db, key.keyId);
    if (touchedAt.size > 10_000) touchedAt.clear();
    touchedAt.set(key.keyId, Date.now());
  }
  return {
    db,
    keyId: key.keyId,
    userId: key.userId,
    role: key.role,
    integrationId: key.integrationId,
    containerId: key.containerId,
    rate,
    ...(withPeriod ? { period: withPeriod.period } : {}),
  };
}

export function json(api: ApiContext | null, body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return jsonText(api, JSON.stringify(body), init);
}

/** `json` for a body already serialized (the lookup writes its answer's JSON bytes itself). */
export function jsonText(api: ApiContext | null, text: string | Uint8Array, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  const headers = api ? rateHeaders(api.rate) : new Headers();
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  for (const [k, v] of Object.entries(init.headers ?? {})) headers.set(k, v);
  return new Response(text as BodyInit, { status: init.status ?? 200, headers });
}

type Handler = (args: { request: Request; params: Record<string, string | undefined>; api: ApiContext }) => Promise<Response>;

/**
 * Wraps an API handler: authentication and rate limit first, then the handler; ApiErrors become JSON
 * errors (with the rate-limit headers once the key is known); anything else is logged and becomes 500.
 */
export function apiHandler(handlers: Partial<Record<"GET" | "POST" | "DELETE" | "PUT" | "PATCH", Handler>>, opts: { budget?: ApiBudget } = {}) {
  return async ({ request, params }: { request: Request; params: Record<string, string | undefined> }): Promise<Response> => {
    const method = request.method.toUpperCase() === "HEAD" ? "GET" : (request.method.toUpperCase() as keyof typeof handlers);
    let api: ApiContext | null = null;
    try {
      api = await authenticateApi(request, opts.budget);
      addLogContext({ userId: api.userId });
      const handler = handlers[method];
      if (!handler) {
        throw new ApiError(405, "method_not_allowed", `${request.method} is not allowed here.`, undefined, {
          Allow: Object.keys(handlers).join(", "),
        });
      }
      return await handler({ request, params, api });
    } catch (e) {
      const known = apiErrorOf(e);
      if (known) return errorResponse(known, api ? rateHeaders(api.rate) : undefined);
      if (e instanceof Response) return e;
      console.error(e);
      return errorResponse(new ApiError(500, "internal_error", "An unexpected error occurred. Please try again."), api ? rateHeaders(api.rate) : undefined);
    }
  };
}

/** Parses a value with a zod-like schema or throws 422 validation_failed with the issues. */
export function validate<T>(
  schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } },
  value: unknown,
): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const details = r.error.issues.map((i) => ({ field: i.path.map(String).join(".") || null, message: i.message }));
  throw new ApiError(422, "validation_failed", details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join("; "), details);
}
