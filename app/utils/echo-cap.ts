import type { SubmissionResult } from "@conform-to/react";

/** Longest value a page writes back into a form after a failed submission. */
export const MAX_ECHOED_CHARS = 1000;

function cap(value: unknown): unknown {
  if (typeof value === "string") return value.length > MAX_ECHOED_CHARS ? value.slice(0, MAX_ECHOED_CHARS) : value;
  if (Array.isArray(value)) return value.map(cap);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cap(v)]));
  return value;
}

/**
 * A failed submission's reply with every echoed value capped: a page never sends back more of what an
 * anonymous visitor posted than a real form field could hold (the body itself is capped at 64 KiB).
 */
export function echoCapped<T extends SubmissionResult<string[]>>(reply: T): T {
  return reply.initialValue ? { ...reply, initialValue: cap(reply.initialValue) as T["initialValue"] } : reply;
}
