import { z } from "zod";
import { ApiError, fieldError } from "./api.server";
import type { ApiBody } from "~/intake/api-body.server";
import type { ExemptionSource } from "~/intake/exemption-load.server";
import { ExemptionInputError, type ExemptionListInfo } from "~/models/exemption.server";

/*
 * The exemption-list endpoints' shared parts (decision 161): the list as the API shows it, the rows of a body
 * (a CSV `file` in multipart, or JSON `rows`), and the parser's refusals as 422 with one detail per bad line.
 */

export function serializeExemptionList(l: ExemptionListInfo) {
  return {
    id: l.id,
    name: l.name,
    description: l.description,
    size: l.size,
    version: l.version,
    sha256: l.sha256,
    created_at: l.createdAt,
    updated_at: l.updatedAt,
  };
}

/** JSON rows: at most this many per request (a CSV file takes up to 1,000,000). */
export const MAX_JSON_EXEMPTION_ROWS = 100_000;

const rowSchema = z.object({
  phone: z.union([z.string().max(40), z.number().int().nonnegative()], { error: "phone must be a phone number" }),
  basis: z.string({ error: "basis must be purchase, inquiry or consent" }).max(40),
  date: z.string({ error: "date must be YYYY-MM-DD" }).max(40),
});

export const jsonRowsSchema = z
  .array(rowSchema, { error: "rows must be a list of {phone, basis, date}" })
  .min(1, "Send at least one row")
  .max(MAX_JSON_EXEMPTION_ROWS, `Send at most ${MAX_JSON_EXEMPTION_ROWS.toLocaleString("en-US")} rows per request; upload a CSV file for more`);

const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;

/** The rows of a request: the multipart `file`, or JSON `rows` (line N of an error is rows[N-1]). */
export function exemptionSourceOf(body: ApiBody, jsonRows: z.infer<typeof jsonRowsSchema> | undefined): ExemptionSource {
  if (body.kind === "multipart") {
    if (!body.upload) throw fieldError("file", "attach a CSV file of phone,basis,date rows");
    return { kind: "file", upload: body.upload };
  }
  if (!jsonRows) throw fieldError("rows", "send rows: a list of {phone, basis, date}");
  return { kind: "text", text: jsonRows.map((r) => [String(r.phone), r.basis, r.date].map(quote).join(",")).join("\n") };
}

/** A JSON body that must be an object (the fields are checked by the endpoint's schema). */
export function jsonObjectOf(body: ApiBody & { kind: "json" }): Record<string, unknown> {
  if (typeof body.value !== "object" || body.value === null || Array.isArray(body.value)) {
    throw new ApiError(422, "validation_failed", "The JSON body must be an object.");
  }
  return body.value as Record<string, unknown>;
}

export function exemptionErrorToApi(e: unknown, field: "rows" | "file"): unknown {
  if (!(e instanceof ExemptionInputError)) return e;
  return new ApiError(
    422,
    "validation_failed",
    `${field}: nothing was loaded. ${e.errors[0]}${e.errors.length > 1 ? ` (and ${e.errors.length - 1} more)` : ""}`,
    e.errors.map((message) => ({ field, message })),
  );
}
