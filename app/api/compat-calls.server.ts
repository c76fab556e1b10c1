import { checkCallRecords, isKnownZone, MAX_CALLS_PER_REQUEST, type CallRecordInput } from "scrub-service/domain";
import { callFileLayout, callOfRow, CsvRowSplitter, CallFileError, VICIDIAL_COLUMNS } from "scrub-service";
import { ApiError, recordsRefusal } from "./api.server";
import { readBodyCapped } from "~/intake/api-body.server";

/*
 * A dialer's call events into the call history (issue #48; decision 185's records, checks and VICIdial status mapping,
 * as `npm run calls -- import` reads them): VICIdial `vicidial_log` rows (call_date, phone_number, campaign_id,
 * status, length_in_sec, and uniqueid as the dialer's call id) sent as a dispo URL's query, a form, a JSON object or
 * array, or a CSV export; or a generic webhook's JSON: one record, a list of them, or `{ "calls": [ … ] }`.
 */

/** Largest body of POST /api/compat/calls (as POST /api/v1/calls's: 10,000 records). */
export const MAX_COMPAT_CALLS_BYTES = 16 * 1024 * 1024;

const TZ_REQUIRED =
  "tz is required for VICIdial rows: their call_date is the dialer server's local time without an offset. Add tz=<the server's IANA zone> to the URL (e.g. tz=America/New_York).";

/** A VICIdial row: vicidial_log's phone_number with its call_date or its status (a dispo URL may send no call_date). */
const isVicidial = (o: Record<string, unknown>) => "phone_number" in o && ("call_date" in o || "status" in o);

/**
 * A VICIdial row (an object of vicidial_log columns) as a record input, read as the import reads a file's row. A row
 * without call_date (a Dispo Call URL fires when the agent sets the disposition, just after the call) is recorded at the
 * request's instant: never earlier than the call, so a cap counting it holds at least as long (the stricter reading).
 */
function vicidialRecord(o: Record<string, unknown>, tz: string | null, nowMs: number): CallRecordInput {
  const row: Record<string, unknown> = { ...o };
  const dated = row.call_date !== undefined && row.call_date !== null && String(row.call_date).trim() !== "";
  if (!dated) row.call_date = new Date(nowMs).toISOString(); // an instant with its offset: read as it is
  const header = Object.keys(row);
  for (const c of VICIDIAL_COLUMNS) if (!header.includes(c)) header.push(c); // a missing status or length reads as empty
  const cells = header.map((h) => (row[h] === undefined || row[h] === null ? "" : String(row[h])));
  return callOfRow(cells, callFileLayout(header, dated ? zoneOf(tz) : "UTC"));
}

function zoneOf(tz: string | null): string {
  if (tz === null || tz.trim() === "") throw new ApiError(400, "validation_failed", TZ_REQUIRED, [{ field: "tz", message: TZ_REQUIRED }]);
  if (!isKnownZone(tz.trim())) {
    const message = `tz ${tz} is not a time zone (use an IANA name such as America/New_York).`;
    throw new ApiError(400, "validation_failed", message, [{ field: "tz", message }]);
  }
  return tz.trim();
}

/** Record inputs of JSON objects: VICIdial rows (`tz` for their call_date) or the call history's own records. */
function inputsOfObjects(objects: unknown[], tz: string | null, nowMs: number): CallRecordInput[] {
  return objects.map((o) => {
    if (o !== null && typeof o === "object" && !Array.isArray(o) && isVicidial(o as Record<string, unknown>)) {
      return vicidialRecord(o as Record<string, unknown>, tz, nowMs);
    }
    return o as CallRecordInput;
  });
}

/** The request's call records, checked whole (422 naming every bad one), from whichever shape the dialer sent. */
export async function readCompatCalls(request: Request, nowMs: number): Promise<{ inputs: number; records: ReturnType<typeof checked> }> {
  const url = new URL(request.url);
  const tz = url.searchParams.get("tz");
  const query = Object.fromEntries([...url.searchParams].filter(([k]) => k !== "key" && k !== "tz" && k !== "loginId"));
  let inputs: CallRecordInput[];
  if (request.method.toUpperCase() === "GET") inputs = inputsOfObjects([query], tz, nowMs);
  else {
    const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
    const bytes = await readBodyCapped(request, MAX_COMPAT_CALLS_BYTES);
    if (type.startsWith("application/json")) {
      let body: unknown;
      try {
        body = JSON.parse(bytes.toString("utf8"));
      } catch {
        throw new ApiError(400, "invalid_json", "The request body is not valid JSON.");
      }
      const list = Array.isArray(body) ? body : body !== null && typeof body === "object" && "calls" in body ? (body as { calls: unknown }).calls : [body];
      if (!Array.isArray(list)) throw recordsRefusal("calls", [{ index: -1, field: "calls", message: "calls must be a list of call records" }]);
      if (list.length > MAX_CALLS_PER_REQUEST)
        throw recordsRefusal("calls", [{ index: -1, field: "calls", message: `Send at most ${MAX_CALLS_PER_REQUEST} call records per request` }]);
      inputs = inputsOfObjects(list, tz, nowMs);
    } else if (type.startsWith("text/csv")) {
      const splitter = new CsvRowSplitter();
      let rows: string[][];
      try {
        rows = [...splitter.push(bytes.toString("utf8")), ...splitter.end()];
      } catch (e) {
        if (e instanceof CallFileError) throw new ApiError(400, "validation_failed", e.message);
        throw e;
      }
      const [header, ...data] = rows;
      if (!header) throw recordsRefusal("calls", [{ index: -1, field: "calls", message: "Send at least one call record" }]);
      const names = header.map((h) => h.trim().toLowerCase());
      const vicidial = VICIDIAL_COLUMNS.every((c) => names.includes(c));
      let layout;
      try {
        layout = callFileLayout(header, vicidial ? zoneOf(tz) : tz && tz.trim() ? zoneOf(tz) : null);
      } catch (e) {
        if (e instanceof CallFileError) throw new ApiError(400, "validation_failed", e.message);
        throw e;
      }
      if (data.length > MAX_CALLS_PER_REQUEST)
        throw recordsRefusal("calls", [{ index: -1, field: "calls", message: `Send at most ${MAX_CALLS_PER_REQUEST} call records per request` }]);
      inputs = data.map((cells) => callOfRow(cells, layout));
    } else if (type === "" || type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
      const fields: Record<string, string> = { ...query };
      if (type.startsWith("multipart/")) {
        let form: FormData;
        try {
          form = await new Response(new Uint8Array(bytes), { headers: { "Content-Type": request.headers.get("Content-Type") ?? "" } }).formData();
        } catch {
          throw new ApiError(400, "validation_failed", "The multipart body could not be read.");
        }
        for (const [k, v] of form) if (typeof v === "string" && k !== "key" && k !== "loginId") fields[k] = v;
      } else for (const [k, v] of new URLSearchParams(bytes.toString("utf8"))) if (k !== "key" && k !== "loginId") fields[k] = v;
      inputs = inputsOfObjects([fields], tz, nowMs);
    } else {
      throw new ApiError(415, "unsupported_media_type", "Send the calls as application/json, text/csv, a form or a URL's query.");
    }
  }
  return { inputs: inputs.length, records: checked(inputs, nowMs) };
}

function checked(inputs: CallRecordInput[], nowMs: number) {
  const r = checkCallRecords(inputs, nowMs);
  if (!r.ok) throw recordsRefusal("calls", r.errors);
  return r.records;
}
