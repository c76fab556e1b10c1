/**
 * A list that holds one country's numbers only (Canada's National DNCL, decision 179): what a load keeps of its
 * numbers. Every number outside the list's region is left out (the load counts it invalid), so a US number in a
 * Canadian file never suppresses anything, in a scrub or a lookup; a file holding numbers but none of the region's
 * is refused rather than applied (a replace with a US file would otherwise empty the Canadian list).
 */
import { listRegionOf } from "../list-types";
import { numberRegion } from "../numbers/normalize";

/** The numbers (sorted, distinct) of `region`, and how many were outside it. */
export function numbersInRegion(numbers: Float64Array, region: string): { kept: Float64Array; outside: number } {
  let n = 0;
  const kept = new Float64Array(numbers.length);
  for (let i = 0; i < numbers.length; i++) if (numberRegion(numbers[i]) === region) kept[n++] = numbers[i];
  return { kept: n === numbers.length ? numbers : kept.slice(0, n), outside: numbers.length - n };
}

/** The refusal of a load that holds numbers but none of its list's region (null: nothing to refuse). */
export function outOfRegionRefusal(kind: string, kept: number, outside: number): string | null {
  if (kept > 0 || outside === 0) return null;
  return listRegionOf(kind) === "CA"
    ? `None of the ${outside} number${outside === 1 ? "" : "s"} is Canadian: Canada's National DNCL holds numbers with Canadian area codes only. The list was not changed.`
    : `None of the ${outside} number${outside === 1 ? "" : "s"} belongs to this list's region (${listRegionOf(kind)}). The list was not changed.`;
}

/** The sentence a typed entry outside the list's region is rejected with (plain ASCII, no `, ; | "`). */
export function outOfRegionMessage(kind: string, n: number): string {
  const npa = Math.floor(n / 10_000_000);
  return listRegionOf(kind) === "CA"
    ? `area code ${npa} is not Canadian: the Canada National DNCL holds Canadian numbers only`
    : `area code ${npa} is outside this list's region`;
}

export { listRegionOf };

/** The reason key of a typed entry outside its list's region (`ManualLoadResult.rejected[].reason`). */
export const OUT_OF_REGION = "not_in_list_region";
