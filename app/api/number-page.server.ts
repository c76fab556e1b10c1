import { z } from "zod";
import { parsePhone } from "scrub-service/domain";
import { fieldError, validate } from "./api.server";

const pageQuery = z.object({
  number: z.string({ error: "number is required" }).trim().min(1, "number is required"),
  limit: z.coerce
    .number({ error: "limit must be a whole number" })
    .int("limit must be a whole number")
    .min(1, "limit must be 1 to 500")
    .max(500, "limit must be 1 to 500")
    .default(100),
  offset: z.coerce.number({ error: "offset must be a whole number" }).int("offset must be a whole number").min(0, "offset must be 0 or more").default(0),
});

export interface NumberPage {
  /** The normalized number, and its ten digits as the API writes them. */
  number: number;
  digits: string;
  limit: number;
  offset: number;
}

/** `?number=…&limit=…&offset=…` of the per-number record listings (calls, opt-outs): 422 naming the field. */
export function readNumberPage(request: Request): NumberPage {
  const url = new URL(request.url);
  const q = validate(pageQuery, {
    number: url.searchParams.get("number") ?? undefined,
    limit: url.searchParams.get("limit") ?? undefined,
    offset: url.searchParams.get("offset") ?? undefined,
  });
  const p = parsePhone(q.number);
  if (!p.ok) throw fieldError("number", p.message);
  return { number: p.number, digits: p.digits, limit: q.limit, offset: q.offset };
}

/** The offset of the next page, or null after the last. */
export function nextOffset(page: NumberPage, returned: number, total: number): number | null {
  return page.offset + returned < total ? page.offset + returned : null;
}
