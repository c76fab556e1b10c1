/**
 * Why a cell is not a phone number: the normalizer's reason keys (job counts, the API) and their short
 * labels (results screen). Kept apart from normalize.ts so screens can name reasons without its table.
 *
 * Stable keys: the first six keep their pre-2026-11 meaning and index.
 */
export const INVALID_REASONS = [
  "empty",
  "excel_notation",
  "not_a_number",
  "wrong_length",
  "invalid_area_code",
  "invalid_exchange",
  "service_area_code",
  "unassigned_area_code",
  "service_exchange",
  "unassigned_exchange",
  "fictional_number",
  "two_numbers",
  "not_nanp",
] as const;
export type InvalidReason = (typeof INVALID_REASONS)[number];

/** Short labels for counts (results screen). */
export const INVALID_REASON_LABELS: Record<InvalidReason, string> = {
  empty: "Empty",
  excel_notation: "Excel notation (digits lost)",
  not_a_number: "Not a phone number",
  wrong_length: "Wrong length",
  invalid_area_code: "Area code starts with 0 or 1",
  invalid_exchange: "Exchange starts with 0 or 1",
  service_area_code: "N11 service code as area code",
  unassigned_area_code: "Area code not in service",
  service_exchange: "N11 service code as exchange",
  unassigned_exchange: "Exchange not in service",
  fictional_number: "555-01XX (fiction)",
  two_numbers: "Two numbers in one cell",
  not_nanp: "Not a North American number",
};
