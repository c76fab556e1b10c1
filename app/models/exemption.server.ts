/**
 * A customer's exemption lists (decision 161): the queries live with the engine (scrub-service/src/exemptions.ts,
 * shared with the CLI and the job runner); this is the app's door to them, scoped by user in every query.
 */
export {
  browseExemptionRecords,
  exemptionCounts,
  createExemptionList,
  deleteExemptionList,
  ExemptionInputError,
  exemptionsOfNumbers,
  findExemptionList as getExemptionList,
  listExemptionLists,
  exemptionRecordsHeld,
  loadExemptions,
  readExemptionRows,
  type ExemptionListInfo,
  type ExemptionLoadResult,
  type ExemptionRecordView,
} from "scrub-service";

/** An exemption list id from a URL or a form, or null. */
export function parseExemptionListId(value: unknown): number | null {
  const s = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  return /^[1-9]\d{0,8}$/.test(s) ? Number(s) : null;
}
