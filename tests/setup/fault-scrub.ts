import fs from "node:fs";
import { AREA_CODE_STATES } from "../../scrub-service/src/worker/area-codes";
import { normalizePhone } from "../../scrub-service/src/worker/normalize";

/**
 * The fault tests' scrub input: `count` rows of distinct valid numbers over every US area code (so every Redis
 * Cluster master serves some, and every row is good or listed), written to `file` as `Name,Phone`. Returns the
 * numbers of every 20th row, which the tests put on the litigation list.
 */
export function writeSpreadInput(file: string, count: number): string[] {
  const areas = [...AREA_CODE_STATES.keys()];
  const rows = ["Name,Phone"];
  const listed: string[] = [];
  for (let i = 0; rows.length <= count; i++) {
    const n = `${areas[i % areas.length]}${200 + (Math.floor(i / areas.length) % 300) * 2}${String(i % 10_000).padStart(4, "0")}`;
    if (normalizePhone(n) !== n) continue;
    if (rows.length % 20 === 0) listed.push(n);
    rows.push(`Row ${i},${n}`);
  }
  fs.writeFileSync(file, rows.join("\n") + "\n");
  return listed;
}
