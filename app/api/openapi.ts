/*
 * The public API's OpenAPI 3.1 document (served at /api/v1/openapi.json; the reference page at /docs/api
 * renders the same object, so the two never disagree).
 */

import { API_ERROR_CODES } from "./error-codes";
import { LOOKUP_BURST, LOOKUP_REQUESTS_PER_SECOND } from "./lookup-budget";
import { ADMIN_LIST_KINDS, SUPPRESSION_TYPE_NAMES } from "scrub-service/domain";

const CALLING_WINDOW_TEXT =
  "true: good.csv gains five columns after the file's own and phone_e164: time_zone (IANA names, several joined by | in alphabetical order, empty for " +
  "toll-free and other non-geographic numbers), callable_now (yes/no at the instant), next_call_at (the earliest lawful instant at or after it, " +
  "YYYY-MM-DDTHH:MM:SSZ), next_call_local (the same instant on the number's clock with its offset, e.g. 2026-11-30T08:00:00-05:00: the zone the " +
  "note names first, else the first of time_zone; empty without a time zone) and calling_note (empty when callable now, else the rule that holds the call back with its citation, e.g. " +
  '"Sunday: Louisiana forbids Sunday calls (La. R.S. 45:811)", "Before 8 a.m. (47 CFR 64.1200(c)(1))"), under the federal, state and CRTC ' +
  "calling hours, Sunday and holiday bans included (rules version in the job's calling_window). A number without a time zone is answered with " +
  "the strictest reading across every US time zone (callable only when callable in all of them) and its note says so. Then calls_24h and calls_7d: " +
  "the number's records in your call history (see `purpose`).";
const CALLS_TEXT =
  "With calling_window=true the owner's call history (POST /calls) is counted too (decision 191): good.csv gains calls_24h and calls_7d after " +
  "calling_note (every record of the number in the 24 hours and 7 days before the instant, calls and texts, reservations included), and a number " +
  "over a frequency cap of `purpose` is not callable now, its next_call_at when the cap lifts (at a lawful hour), its calling_note naming the cap, " +
  'e.g. "3 calls in 24 hours to Florida (Fla. Stat. § 501.616(6)(b)): next at 2026-12-03T02:00:00Z". The caps as the lookup applies them.';
const PURPOSE_TEXT =
  "With calling_window=true: telemarketing (default: the states' solicitation caps, per `subject`) or debt-collection (Regulation F and " +
  "Massachusetts, per debt: each row's debt id read from `debt_column`). " +
  CALLS_TEXT;
const SUBJECT_TEXT = 'With calling_window=true: the subject (campaign) of the calls, for the per-subject caps; default "default" (the calls API\'s).';
const DEBT_COLUMN_TEXT = "With purpose=debt-collection: the header of the column holding each row's debt id (a row without one is counted against every debt).";
const CALLING_AT_TEXT =
  "With calling_window=true or exemptions: the instant the calling columns and the exemptions are evaluated at, ISO-8601 with its UTC offset; default: the scrub's start. " +
  'An instant means "for calls then": not earlier than now (5 minutes of clock skew allowed) and not later than the checked lists\' "valid for calls until" ' +
  "(each list's release date plus its freshness rule: the federal DNC list 31 days, each state list its own; Litigation Only has no upper bound); " +
  "otherwise 422 on `at` naming the instant and the bound.";
const EXEMPTIONS_TEXT =
  "One of your exemption lists (GET /exemption-lists): a number on the DNC list stays good when its record applies at `at` (a purchase within 18 " +
  "calendar months before it, an inquiry within 3, written consent dated before it; a state list with its own windows, e.g. Texas 12 months and no " +
  'inquiry, under those); litigation and your container are never exempted. good.csv gains an exemption column ("purchase 2025-03-01, exempt ' +
  'until 2026-09-01"), and bad.csv an exemption column after reason saying why a listed number\'s record did not apply ("purchase 2025-05-15: ' +
  'Texas allows 12 months, ended 2026-05-15", "litigation list: never exempted"; empty without a record). The job\'s exemptions count the ' +
  "records applied, expired, never applicable and dated after the instant, per basis.";
const EXEMPTION_ROWS_TEXT =
  "Rows phone, basis (purchase, inquiry or consent) and date (YYYY-MM-DD, from 1900-01-01, not in the future); one basis per number. Any bad row " +
  "refuses the whole request with 422 and one detail per bad line (line N = rows[N-1], or the file's line). JSON: up to 100,000 rows (a body up to " +
  "10 MB). multipart `file`: up to 1,000,000 rows and 64 MB, streamed to disk and read in any format a scrub reads (CSV in UTF-8, UTF-16 with a BOM " +
  "or Windows-1252, any delimiter, CR, LF or CRLF lines; .gz; a .zip of one file; an .xlsx sheet); a row longer than 65,536 characters stops the " +
  "read (422 naming its line). The account's lists together hold at most its plan's exemption records (Beginner 100,000, Business 1,000,000, " +
  "Premium 5,000,000; 422 past it, nothing loaded). Another load of the same list while one runs: 422; scrubs and lookups read the previous " +
  "version until a load completes.";

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

const rateHeaders = {
  "X-RateLimit-Limit": { description: "Requests allowed per hour (1000).", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the current hour.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Unix time (seconds) when the current window ends.", schema: { type: "integer" } },
  "X-RateLimit-Window": { description: "The window X-RateLimit-Limit counts over, in seconds (3600).", schema: { type: "integer" } },
};

/** POST /lookup has its own budget (decision 111): a per-second bucket, not the hourly window. */
const lookupRateHeaders = {
  "X-RateLimit-Limit": { description: `Lookup requests allowed per second (${LOOKUP_REQUESTS_PER_SECOND}).`, schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: `Lookup requests that may be sent at once now (up to ${LOOKUP_BURST}).`, schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Unix time (seconds) by which the full burst is available again.", schema: { type: "integer" } },
  "X-RateLimit-Window": { description: "The window X-RateLimit-Limit counts over, in seconds (1).", schema: { type: "integer" } },
};

/** A 200-style JSON answer with the API's rate-limit headers. */
const jsonAnswer = (description: string, schema: object) => ({
  description,
  headers: rateHeaders,
  content: { "application/json": { schema } },
});

/** `number`, `limit` and `offset`: the query of a per-number listing (calls, opt-outs), `what` being listed. */
const numberPageParameters = (what: string) => [
  {
    name: "number",
    in: "query",
    required: true,
    description: "The phone number, in any form the scrub reads (10 digits after normalizing).",
    schema: { type: "string" },
  },
  { name: "limit", in: "query", required: false, description: `${what} per page, 1 to 500 (default 100).`, schema: { type: "integer" } },
  { name: "offset", in: "query", required: false, description: `${what} to skip (next_offset of the previous page).`, schema: { type: "integer" } },
];

/** `from` and `to`: a window of UTC days (the ledger's export, a number's dossier). */
const dayWindowParameters = [
  {
    name: "from",
    in: "query",
    required: false,
    description: "First UTC day, YYYY-MM-DD (default: 30 days before `to`).",
    schema: { type: "string", format: "date" },
  },
  {
    name: "to",
    in: "query",
    required: false,
    description: "Last UTC day, YYYY-MM-DD (default: today); at most 366 days from `from`.",
    schema: { type: "string", format: "date" },
  },
];

const commonErrors = {
  "401": error("Missing, invalid or revoked API key (missing_api_key, invalid_api_key, api_key_revoked)."),
  "403": error("The key's account is not active (account_disabled)."),
  "429": {
    ...error("More than 1000 requests in the current hour (rate_limited)."),
    headers: { ...rateHeaders, "Retry-After": { description: "Seconds until the window resets.", schema: { type: "integer" } } },
  },
};

const workErrors = {
  "403": error(
    "No active plan (no_plan), the plan does not include API access (api_not_in_plan), the plan's limit for the period would be exceeded (usage_limit_exceeded), or the account is not active (account_disabled).",
  ),
  "404": error("The container does not exist or belongs to someone else (not_found)."),
  "400": error("The JSON body could not be parsed (invalid_json)."),
  "413": error(
    "The upload is larger than the server's limit (payload_too_large), or the multipart form has more than 1,000 text fields or 1,100 parts (too_many_fields, the message names the limit).",
  ),
  "415": error("Neither multipart/form-data nor application/json (unsupported_media_type)."),
  "422": error("A field is missing or invalid (validation_failed); details lists each field."),
  "429": {
    ...error(
      "More than 1000 requests in the current hour (rate_limited), or, for a new scrub, the account already has its maximum of scrubs queued or running (too_many_active_jobs, default 5).",
    ),
    headers: { ...rateHeaders, "Retry-After": { description: "Seconds until the window resets (rate_limited).", schema: { type: "integer" } } },
  },
};

/** "see /rules" for a calling_rules_version: the public rules page, absolute on the app's own address. */
function rulesPageNote(appBase: string): string {
  return `see /rules (${appBase}/rules): every rule applied, its citation, and what changed in each version`;
}

/**
 * The OpenAPI document, its links absolute on `appBase` (the route passes `appUrl()`, never a request header).
 */
export function openApiDocumentAt(appBase: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Data Purging Tool API",
      version: "1.0.0",
      description:
        "Scrub phone lists against the Litigation and DNC suppression lists, poll progress, download the good, bad and invalid results, " +
        "and add numbers to your containers. Authenticate with an API key from the Integrations page: `Authorization: Bearer <key>`. " +
        "Each key may make 1000 requests per hour; live lookups (POST /lookup) have their own budget of " +
        `${LOOKUP_REQUESTS_PER_SECOND} requests per second per key (bursts up to ${LOOKUP_BURST}) and do not count against the hourly one. ` +
        "Work counts against the same plan limits as the web screens.",
    },
    servers: [{ url: "/api/v1" }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "Scrubs" },
      { name: "Lookup" },
      { name: "Containers" },
      { name: "Exemptions" },
      { name: "Call history" },
      { name: "Opt-outs" },
      { name: "Ledger" },
      { name: "Dialers" },
      { name: "Account" },
    ],
    paths: {
      "/scrubs": {
        get: {
          tags: ["Scrubs"],
          summary: "List scrub jobs",
          description: "The account's jobs (from the web and the API), newest first.",
          parameters: [
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
            { name: "status", in: "query", schema: { type: "string", enum: ["queued", "running", "retrying", "completed", "failed"] } },
            { name: "after", in: "query", description: "next_cursor of the previous page.", schema: { type: "string", format: "uuid" } },
          ],
          responses: {
            "200": jsonAnswer("A page of jobs.", {
              type: "object",
              properties: {
                data: { type: "array", items: { $ref: "#/components/schemas/Job" } },
                next_cursor: { type: ["string", "null"] },
              },
            }),
            "422": error("A query parameter is invalid (validation_failed)."),
            ...commonErrors,
          },
        },
        post: {
          tags: ["Scrubs"],
          summary: "Submit a scrub",
          description:
            "Upload a CSV file (multipart/form-data) or send a JSON list of numbers. Invalid numbers do not block the scrub: they land in the invalid file with a reason. " +
            "Refused with 422 before any job exists: an unreadable or empty file, an unknown sheet or column, a column with no phone number among its first 10 rows, a JSON list with no valid number. " +
            "Without container_id, the integration's container (if any) is used. Answers 202 with the queued job; poll GET /scrubs/{id}.",
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  required: ["file", "suppression_type"],
                  properties: {
                    file: {
                      type: "string",
                      format: "binary",
                      description:
                        "The list: CSV or tab/semicolon/pipe-delimited text (UTF-8, UTF-16 with BOM or Windows-1252), an Excel workbook (.xlsx), or one of them as .gz or .zip. The job's `input` says what it was read as.",
                    },
                    suppression_type: { $ref: "#/components/schemas/SuppressionType" },
                    column: { type: "string", description: "Phone column header; default: the first header like phone/number/mobile/cell/tel." },
                    sheet: { type: "string", description: "The workbook sheet to scrub (an .xlsx); default: the first sheet." },
                    container_id: { type: "integer", description: "One of your containers; its numbers are suppressed too." },
                    states: { type: "string", description: "Comma-separated two-letter US states to keep, e.g. TX,FL." },
                    file_name: { type: "string" },
                    calling_window: { type: "string", enum: ["true", "false"], description: CALLING_WINDOW_TEXT },
                    purpose: { type: "string", enum: ["telemarketing", "debt-collection"], description: PURPOSE_TEXT },
                    subject: { type: "string", maxLength: 200, description: SUBJECT_TEXT },
                    debt_column: { type: "string", maxLength: 200, description: DEBT_COLUMN_TEXT },
                    exemptions: { type: "integer", description: EXEMPTIONS_TEXT },
                    at: { type: "string", format: "date-time", description: CALLING_AT_TEXT },
                  },
                },
              },
              "application/json": {
                schema: {
                  type: "object",
                  required: ["numbers", "suppression_type"],
                  properties: {
                    numbers: { type: "array", minItems: 1, maxItems: 100000, items: { type: ["string", "integer"] } },
                    suppression_type: { $ref: "#/components/schemas/SuppressionType" },
                    container_id: { type: ["integer", "null"] },
                    states: { type: "array", items: { type: "string", pattern: "^[A-Za-z]{2}$" } },
                    file_name: { type: "string" },
                    calling_window: { type: "boolean", description: CALLING_WINDOW_TEXT },
                    purpose: { type: "string", enum: ["telemarketing", "debt-collection"], description: PURPOSE_TEXT },
                    subject: { type: "string", maxLength: 200, description: SUBJECT_TEXT },
                    debt_column: { type: "string", maxLength: 200, description: DEBT_COLUMN_TEXT },
                    exemptions: { type: ["integer", "null"], description: EXEMPTIONS_TEXT },
                    at: { type: "string", format: "date-time", description: CALLING_AT_TEXT },
                  },
                },
                example: { numbers: ["(212) 555-2142", "2125552143"], suppression_type: "DNCAndLitigation", states: ["NY"] },
              },
            },
          },
          responses: {
            "202": {
              description: "Queued.",
              headers: { ...rateHeaders, Location: { schema: { type: "string" } } },
              content: { "application/json": { schema: { type: "object", properties: { job: { $ref: "#/components/schemas/Job" } } } } },
            },
            ...commonErrors,
            ...workErrors,
          },
        },
      },
      "/scrubs/{id}": {
        get: {
          tags: ["Scrubs"],
          summary: "Get a scrub job",
          description: "Status, progress and counts; when completed, the result files with their download URLs.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          responses: {
            "200": {
              description: "The job.",
              headers: rateHeaders,
              content: { "application/json": { schema: { type: "object", properties: { job: { $ref: "#/components/schemas/Job" } } } } },
            },
            "404": error("No such job for this account (not_found)."),
            ...commonErrors,
          },
        },
      },
      "/scrubs/{id}/files/{kind}": {
        get: {
          tags: ["Scrubs"],
          summary: "Download a result file",
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } },
            { name: "kind", in: "path", required: true, schema: { type: "string", enum: ["good", "bad", "invalid"] } },
          ],
          responses: {
            "200": {
              description:
                "The CSV: all input columns (escaped against formula injection as read), then phone_e164 (the number read, +1 and ten digits, e.g. " +
                "+12127364832: a dialer's import key; empty in the invalid file), then in good.csv the calling columns (calling_window) and exemption " +
                "(exemptions), in bad.csv reason and exemption (exemptions), in invalid.csv reason.",
              content: { "text/csv": {} },
            },
            "404": error("No such job or file for this account (not_found)."),
            "409": error("The job has not finished yet (result_not_ready)."),
            ...commonErrors,
          },
        },
      },
      "/scrubs/{id}/certificate": {
        get: {
          tags: ["Scrubs"],
          summary: "Download the signed scrub certificate",
          description:
            "The certificate of a completed scrub, byte for byte as issued: canonical JSON { certificate, signature } with the input's and each result file's SHA-256, the row counts, the list versions used and an Ed25519 signature. Public keys: /.well-known/scrub-certificate-key. Check it with `npm run verify` or at /verify.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          responses: {
            "200": { description: "The certificate file (scrub-certificate/1).", content: { "application/json": {} } },
            "404": error("No such job or certificate for this account (not_found)."),
            "409": error("The job has not finished yet (result_not_ready)."),
            ...commonErrors,
          },
        },
      },
      "/lookup": {
        post: {
          tags: ["Lookup"],
          summary: "Look numbers up (live, for dialers)",
          description:
            "Up to 1,000 numbers (strings or integers) answered at once, in the order sent: the normalized 10-digit number, whether it is valid (else the reason and " +
            "a sentence), its kind, region and state, the suppression lists holding it (lists) and which of your containers hold it (containers; never another account's). " +
            'suppressed / suppressed_by say what a scrub would do with it (the same decision): "internal_dnc" when your internal do-not-call list (your opt-outs, ' +
            'POST /opt-outs) holds it, whatever container is chosen; "container" when container_id (default: the integration\'s container) ' +
            "holds it, else the first list of suppression_type (default DNCAndLitigation) that holds it and no exemption clears. Every entry, valid or not, counts as one number of DNC suppression usage, like a scrub's rows. " +
            "The lists are read at their current versions (listed in the answer); when any of them cannot be read the request fails with 503 and counts nothing — " +
            "never an answer that a number is on no list. A list the suppression type checks that is past its freshness rule (the federal DNC list after 31 days, " +
            "a state list after its own) is named in stale_lists, and while there is one no number is answered callable on its word: a number no fresh list or " +
            'container suppresses is suppressed_by "stale_list". ' +
            `Rate limit: ${LOOKUP_REQUESTS_PER_SECOND} requests per second per key (with the integration's rate limiting on, shared by its keys), bursts up to ${LOOKUP_BURST}; ` +
            "lookups do not count against the 1000 requests per hour of the other endpoints. The plan's DNC suppression usage is what bounds the numbers looked up.",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["numbers"],
                  properties: {
                    numbers: {
                      type: "array",
                      minItems: 1,
                      maxItems: 1000,
                      items: { type: ["string", "integer"] },
                      description:
                        "Up to 1,000 numbers as written (any punctuation, a leading 1 or +1) or as integers; answered in this order, repeats included.",
                    },
                    suppression_type: { $ref: "#/components/schemas/SuppressionType" },
                    container_id: { type: ["integer", "null"], description: "One of your containers that suppresses too; null for none." },
                    at: {
                      type: "string",
                      format: "date-time",
                      description:
                        "The instant timeZones, callableNow and nextCallAt (and exempt) answer for: ISO-8601 with its UTC offset; default: now. Not earlier than now " +
                        "(5 minutes of clock skew allowed) nor later than the checked lists' \"valid for calls until\" (release date plus each list's freshness rule): " +
                        "otherwise 422 on `at` naming the instant and the bound, nothing counted.",
                    },
                    exemptions: {
                      type: ["integer", "null"],
                      description: "One of your exemption lists: each result then has `exempt`, and the answer names exemption_list (id and version).",
                    },
                    subject: {
                      type: ["string", "null"],
                      maxLength: 200,
                      description:
                        'The subject (campaign) of the calls about to be made, for the caps counted per subject (Florida, Maryland, Oklahoma): your call records on this subject count. Default "default", the call-history API\'s one subject for records that name none.',
                    },
                    purpose: {
                      type: "string",
                      enum: ["telemarketing", "debt-collection"],
                      description:
                        "What the calls are for: telemarketing (default) applies the states' solicitation caps (three in 24 hours in Florida, Maryland, Oklahoma and Oregon); debt-collection applies Regulation F (seven calls in seven days per debt, none within seven days after a conversation) and Massachusetts' debt rules instead. See Call limits on the rules page.",
                    },
                    debt_id: {
                      type: ["string", "null"],
                      maxLength: 200,
                      description:
                        "With purpose debt-collection only (else 422): the debt the calls are about; the per-debt caps count your records about it and those naming no debt. Absent: every record of the number counts (the stricter reading).",
                    },
                    channel: {
                      type: "string",
                      enum: ["call", "text"],
                      description:
                        "The contact about to be made (default call): a cap that does not count texts (Regulation F) does not hold a text; a reservation records this channel.",
                    },
                    reserve: {
                      type: "boolean",
                      description:
                        "The pre-dial check (default false): for each number not suppressed and callable now (hours and caps), record an attempted call (reserved, on subject, debt_id and channel) in the same step, and answer reserved and reservationId. " +
                        "Each number is locked while it is counted and reserved, so dialers racing for one number never pass a cap together. DELETE /api/v1/calls/{id} removes a reservation never dialled. Not with `at` (422).",
                    },
                  },
                },
                example: { numbers: ["(212) 555-2142", 4155552100, "12"] },
              },
            },
          },
          responses: {
            "200": {
              description: "One result per number, in order.",
              headers: lookupRateHeaders,
              content: { "application/json": { schema: { $ref: "#/components/schemas/LookupAnswer" } } },
            },
            ...commonErrors,
            ...workErrors,
            "404": error("container_id is not one of your containers, or exemptions not one of your exemption lists (not_found)."),
            "413": error("The body is larger than 64 KB (payload_too_large)."),
            "415": error("The body is not application/json (unsupported_media_type)."),
            "422": error("numbers is missing, empty or longer than 1,000, or another field is invalid (validation_failed)."),
            "429": {
              ...error(`More than ${LOOKUP_REQUESTS_PER_SECOND} lookup requests per second, beyond a burst of ${LOOKUP_BURST} (rate_limited).`),
              headers: { ...lookupRateHeaders, "Retry-After": { description: "Seconds to wait (1).", schema: { type: "integer" } } },
            },
            "503": {
              ...error(
                "A suppression list could not be read at its current version (service_unavailable, Retry-After 30), or the server was too busy to answer within the lookup's deadline (service_unavailable, the message says the server is busy, Retry-After 1); nothing was counted. Retry.",
              ),
              headers: {
                "Retry-After": {
                  description: "Seconds to wait before retrying (1 when the server was busy, 30 when a list could not be read).",
                  schema: { type: "integer" },
                },
              },
            },
          },
        },
      },
      "/containers": {
        get: {
          tags: ["Containers"],
          summary: "List containers",
          responses: {
            "200": jsonAnswer("The account's containers.", {
              type: "object",
              properties: { data: { type: "array", items: { $ref: "#/components/schemas/Container" } } },
            }),
            ...commonErrors,
          },
        },
      },
      "/containers/{id}/numbers": {
        post: {
          tags: ["Containers"],
          summary: "Add numbers to a container",
          description: 'A CSV file (multipart `file`) or JSON `{ "numbers": [...] }`. Counts against the plan\'s container limit. Answers 202 with the load.',
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": { schema: { type: "object", required: ["file"], properties: { file: { type: "string", format: "binary" } } } },
              "application/json": {
                schema: {
                  type: "object",
                  required: ["numbers"],
                  properties: { numbers: { type: "array", minItems: 1, maxItems: 100000, items: { type: ["string", "integer"] } } },
                },
              },
            },
          },
          responses: {
            "202": {
              description: "Queued.",
              headers: { ...rateHeaders, Location: { schema: { type: "string" } } },
              content: { "application/json": { schema: { type: "object", properties: { load: { $ref: "#/components/schemas/ContainerLoad" } } } } },
            },
            ...commonErrors,
            ...workErrors,
          },
        },
      },
      "/containers/{id}/loads/{loadId}": {
        get: {
          tags: ["Containers"],
          summary: "Get a container load",
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "integer" } },
            { name: "loadId", in: "path", required: true, schema: { type: "string", format: "uuid" } },
          ],
          responses: {
            "200": {
              description: "The load.",
              headers: rateHeaders,
              content: { "application/json": { schema: { type: "object", properties: { load: { $ref: "#/components/schemas/ContainerLoad" } } } } },
            },
            "404": error("No such load for this account (not_found)."),
            ...commonErrors,
          },
        },
      },
      "/exemption-lists": {
        get: {
          tags: ["Exemptions"],
          summary: "List exemption lists",
          responses: {
            "200": jsonAnswer("The account's exemption lists.", {
              type: "object",
              properties: { data: { type: "array", items: { $ref: "#/components/schemas/ExemptionList" } } },
            }),
            ...commonErrors,
          },
        },
        post: {
          tags: ["Exemptions"],
          summary: "Create an exemption list with its rows",
          description: `Established business relationships and written consents (decision 161). ${EXEMPTION_ROWS_TEXT}`,
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  required: ["name", "file"],
                  properties: {
                    name: { type: "string" },
                    description: { type: "string" },
                    file: { type: "string", format: "binary", description: "CSV: phone,basis,date (a header row is optional)." },
                  },
                },
              },
              "application/json": {
                schema: {
                  type: "object",
                  required: ["name", "rows"],
                  properties: { name: { type: "string" }, description: { type: "string" }, rows: { $ref: "#/components/schemas/ExemptionRows" } },
                },
                example: { name: "CRM export", rows: [{ phone: "(212) 555-2142", basis: "purchase", date: "2025-03-01" }] },
              },
            },
          },
          responses: {
            "201": {
              description: "Created and loaded.",
              headers: { ...rateHeaders, Location: { schema: { type: "string" } } },
              content: { "application/json": { schema: { type: "object", properties: { exemption_list: { $ref: "#/components/schemas/ExemptionList" } } } } },
            },
            ...commonErrors,
            ...workErrors,
          },
        },
      },
      "/exemption-lists/{id}": {
        get: {
          tags: ["Exemptions"],
          summary: "Get an exemption list",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
          responses: {
            "200": {
              description: "The list.",
              headers: rateHeaders,
              content: { "application/json": { schema: { type: "object", properties: { exemption_list: { $ref: "#/components/schemas/ExemptionList" } } } } },
            },
            "404": error("No such exemption list for this account (not_found)."),
            ...commonErrors,
          },
        },
        post: {
          tags: ["Exemptions"],
          summary: "Load rows into an exemption list",
          description:
            "mode add (default): new numbers join; a number already on the list keeps its basis and the later date, and another basis for it refuses the " +
            `request. mode replace: the rows become the whole list. All or nothing; the list's version and SHA-256 change. ${EXEMPTION_ROWS_TEXT}`,
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  required: ["file"],
                  properties: { mode: { type: "string", enum: ["add", "replace"] }, file: { type: "string", format: "binary" } },
                },
              },
              "application/json": {
                schema: {
                  type: "object",
                  required: ["rows"],
                  properties: { mode: { type: "string", enum: ["add", "replace"] }, rows: { $ref: "#/components/schemas/ExemptionRows" } },
                },
              },
            },
          },
          responses: {
            "200": jsonAnswer("Loaded.", {
              type: "object",
              properties: {
                exemption_list: { $ref: "#/components/schemas/ExemptionList" },
                written: { type: "integer", description: "Numbers new or changed." },
              },
            }),
            ...commonErrors,
            ...workErrors,
            "404": error("No such exemption list for this account (not_found)."),
          },
        },
      },
      "/calls": {
        get: {
          tags: ["Call history"],
          summary: "A number's call history",
          description:
            "The account's calls and texts to one number, newest first, a page at a time, with the counts in the 24 hours and the 7 days before now " +
            "(reserved attempts included). Records are kept five years (16 CFR 310.5(a)(2)); decision 185.",
          parameters: numberPageParameters("Records"),
          responses: {
            "200": jsonAnswer("The number's records and counts.", {
              type: "object",
              properties: {
                number: { type: "string", description: "The number as 10 digits." },
                at: { type: "string", format: "date-time", description: "The instant the windows end at (now)." },
                last_24_hours: { $ref: "#/components/schemas/CallCounts", description: "Calls and texts to the number in the 24 hours before `at`." },
                last_7_days: { $ref: "#/components/schemas/CallCounts", description: "Calls and texts to the number in the 7 days before `at`." },
                total: { type: "integer", description: "The number's records in all (every page)." },
                next_offset: { type: ["integer", "null"], description: "The offset of the next page; null on the last one." },
                data: { type: "array", items: { $ref: "#/components/schemas/CallRecord" }, description: "This page's records, newest first." },
              },
            }),
            "422": error("number missing or not a valid phone number, or limit/offset out of range (validation_failed)."),
            ...commonErrors,
          },
        },
        post: {
          tags: ["Call history"],
          summary: "Record calls and texts",
          description:
            "Up to 10,000 records per request, all or nothing: a bad record refuses the whole request (422) and details names each one by index and field. " +
            "A record whose dialer_call_id was recorded before (in this request or an earlier one) is ignored, so a retried request never counts a call twice. " +
            "Records are kept five years (16 CFR 310.5(a)(2) as amended in 2024) and then dropped; decision 185.",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["calls"],
                  properties: {
                    calls: {
                      type: "array",
                      minItems: 1,
                      maxItems: 10000,
                      items: { $ref: "#/components/schemas/CallRecordInput" },
                      description: "The records, 1 to 10,000.",
                    },
                  },
                },
                example: {
                  calls: [
                    {
                      number: "(212) 555-2345",
                      at: "2026-11-27T15:04:05-05:00",
                      subject: "spring-promo",
                      channel: "call",
                      outcome: "connected",
                      dialer_call_id: "1764273845.1021",
                    },
                  ],
                },
              },
            },
          },
          responses: {
            "201": jsonAnswer("Recorded.", {
              type: "object",
              properties: {
                recorded: { type: "integer", description: "Records written." },
                ignored: { type: "integer", description: "Records left out as repeats of a dialer_call_id already recorded." },
                ids: {
                  type: "array",
                  items: { type: "string" },
                  description: "The written records' ids, in request order (for DELETE of a reservation).",
                },
              },
            }),
            ...commonErrors,
            ...workErrors,
            "413": error("The body is larger than 16 MiB (payload_too_large)."),
            "415": error("Not application/json (unsupported_media_type)."),
            "422": error(
              "calls missing, empty or over 10,000, or a record is bad (validation_failed); details has one entry per problem with the record's index and field.",
            ),
          },
        },
      },
      "/calls/{id}": {
        delete: {
          tags: ["Call history"],
          summary: "Delete a reserved attempt never dialled",
          description: "Only a record sent with reserved=true goes (its dialer_call_id may be used again); a record of a call made is kept five years: 409.",
          parameters: [{ name: "id", in: "path", required: true, description: "The record's id (POST /calls answers them).", schema: { type: "string" } }],
          responses: {
            "204": { description: "Deleted.", headers: rateHeaders },
            "404": error("No such record for this account (not_found)."),
            "409": error("The record is not a reservation (conflict)."),
            ...commonErrors,
          },
        },
      },
      "/opt-outs": {
        get: {
          tags: ["Opt-outs"],
          summary: "A number's opt-outs",
          description:
            "The do-not-call requests and revocations of consent the account recorded for one number, newest received first, each with the instant it was " +
            "received, the instant it was honoured (it took effect in your internal do-not-call list) and its deadline: the end of the tenth business day after " +
            "the day of receipt (47 CFR 64.1200(d)(3); business days skip weekends and federal holidays). Kept five years; decision 195.",
          parameters: numberPageParameters("Opt-outs"),
          responses: {
            "200": jsonAnswer("The number's opt-outs.", {
              type: "object",
              properties: {
                number: { type: "string", description: "The number as 10 digits." },
                total: { type: "integer", description: "The number's opt-outs in all (every page)." },
                next_offset: { type: ["integer", "null"], description: "The offset of the next page; null on the last one." },
                data: { type: "array", items: { $ref: "#/components/schemas/OptOut" }, description: "This page's opt-outs, newest received first." },
              },
            }),
            "422": error("number missing or not a valid phone number, or limit/offset out of range (validation_failed)."),
            ...commonErrors,
          },
        },
        post: {
          tags: ["Opt-outs"],
          summary: "Record opt-outs (do-not-call requests, revocations of consent)",
          description:
            'One opt-out, or up to 10,000 as `{ "opt_outs": [ … ] }`, all or nothing: a bad record refuses the whole request (422) and details names each one ' +
            "by index and field. The numbers are added at once to your internal do-not-call list (a container created on the first opt-out), which every scrub " +
            'and lookup of your account checks whatever container is chosen (reason "internal_dnc"), and which no exemption clears: the number\'s consent and ' +
            "relationship records stop counting from the instant received. Both instants are kept five years (47 CFR 64.1200(d)(6), 16 CFR 310.5(a)); " +
            "opt-outs count against no plan limit. Decision 195.",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  oneOf: [
                    { $ref: "#/components/schemas/OptOutInput" },
                    {
                      type: "object",
                      required: ["opt_outs"],
                      properties: {
                        opt_outs: {
                          type: "array",
                          minItems: 1,
                          maxItems: 10000,
                          items: { $ref: "#/components/schemas/OptOutInput" },
                          description: "The opt-outs, 1 to 10,000.",
                        },
                      },
                    },
                  ],
                },
                example: { number: "(212) 555-2345", received_at: "2026-11-27T15:04:05-05:00", channel: "text", words: "STOP", subject: "spring-promo" },
              },
            },
          },
          responses: {
            "201": jsonAnswer("Recorded and honoured.", {
              type: "object",
              properties: {
                recorded: { type: "integer", description: "Opt-outs written." },
                ids: { type: "array", items: { type: "string" }, description: "Their ids, in request order." },
                internal_list_id: { type: "integer", description: "Your internal do-not-call list (a container id)." },
                load_id: { type: "string", description: "The list load that added the numbers (GET /containers/{id}/loads/{loadId})." },
                honoured_at: { type: "string", format: "date-time", description: "When they took effect in the list." },
              },
            }),
            ...commonErrors,
            ...workErrors,
            "413": error("The body is larger than 32 MiB (payload_too_large)."),
            "415": error("Not application/json (unsupported_media_type)."),
            "422": error(
              "A field missing or bad, opt_outs empty or over 10,000 (validation_failed); details has one entry per problem with the record's index and field.",
            ),
          },
        },
      },
      "/check": {
        get: {
          tags: ["Dialers"],
          summary: "Yes/no: may this number be called now?",
          description:
            "For DID and IVR filters (VICIdial's DID filter URL): a plain body `1` when the number must not be called now (invalid, on a checked list, " +
            "outside its calling hours or held by a call cap at this instant) and `0` when it may; `format=boolean` answers `true`/`false`. " +
            "Decided by the live lookup (one lookup counted). The key as `Authorization: Bearer`, a `loginId` header or, for dialers that can only " +
            "build URLs, the `key` query parameter (the key then sits in the dialer's and any proxy's logs: use a key of its own and revoke it if leaked). " +
            "It fails closed: a refused request answers `1` (`true`) with its error status and the reason in the X-Check-Error header. Issue #48.",
          parameters: [
            { name: "phone", in: "query", required: true, description: "The number, in any form the scrub reads.", schema: { type: "string" } },
            {
              name: "format",
              in: "query",
              required: false,
              description: "`boolean` for true/false; default 1/0.",
              schema: { type: "string", enum: ["digit", "boolean"] },
            },
            {
              name: "campaign",
              in: "query",
              required: false,
              description: "The dialer's campaign: the call-history subject its caps count, and its settings.",
              schema: { type: "string" },
            },
            {
              name: "key",
              in: "query",
              required: false,
              description: "The API key, when no header can be sent (see the risk above).",
              schema: { type: "string" },
            },
          ],
          responses: {
            "200": {
              description: "`1` or `0` (`true` or `false`).",
              headers: lookupRateHeaders,
              content: { "text/plain": { schema: { type: "string", enum: ["0", "1", "true", "false"] } } },
            },
            "400": {
              description: "phone missing or too long, or format not boolean/digit: body `1`, the reason in X-Check-Error.",
              content: { "text/plain": { schema: { type: "string" } } },
            },
            "401": {
              description: "Missing, invalid or revoked key: body `1`, the reason in X-Check-Error.",
              content: { "text/plain": { schema: { type: "string" } } },
            },
            "429": { description: "Over the live lookup's per-second budget: body `1`.", content: { "text/plain": { schema: { type: "string" } } } },
          },
        },
      },
      "/compat/dncscrub/scrub": {
        servers: [{ url: "/api" }],
        get: {
          tags: ["Dialers"],
          summary: "DNCScrub-compatible scrub (GET)",
          description:
            "The same as the POST, with the parameters in the query string and the key in the `loginId` header (or parameter). Fit for a few numbers.",
          parameters: [
            {
              name: "phoneList",
              in: "query",
              required: true,
              description: "Comma-separated numbers, each optionally `|identifier`.",
              schema: { type: "string" },
            },
            { name: "output", in: "query", required: false, description: "`csv` (default) or `json`.", schema: { type: "string", enum: ["csv", "json"] } },
            { name: "campaignId", in: "query", required: false, description: "The dialer's campaign.", schema: { type: "string" } },
            { name: "loginId", in: "header", required: false, description: "The API key.", schema: { type: "string" } },
          ],
          responses: {
            "200": {
              description: "As the POST's.",
              content: {
                "text/csv": { schema: { type: "string" } },
                "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/CompatResult" } } },
              },
            },
            "400": {
              description: "One line `ERROR: <reason>` (JSON `{ error }` with output=json).",
              content: { "text/plain": { schema: { type: "string" } } },
            },
          },
        },
        post: {
          tags: ["Dialers"],
          summary: "DNCScrub-compatible scrub",
          description:
            "The DNCScrub scrub API's contract for dialers that already speak it: point VICIdial's DNC_DOT_COM_URL (settings container DNCDOTCOM) here. " +
            "Form-encoded, multipart or JSON bodies; up to 60,000 numbers per request (VICIdial's filter sends up to 50,999). The CSV answer has no header: " +
            "one line per number in the order sent (repeats included), the 17 fields of CompatResult joined by commas; no field holds a comma, quote or " +
            "backslash, and fields we do not know stay empty. Result codes: C on no list (whatever the hour: DoNotCallToday and CallingWindow tell the hour), " +
            "D on a do-not-call list, the litigator list or the campaign's container, O on a list but cleared by a relationship or consent, E a valid " +
            "relationship on no list, I invalid. Decided by the live lookup at one instant, counted as lookups (one per number). Any refusal is one line " +
            "`ERROR: <reason>` (the filter ignores HTTP statuses), logged and shown on the Integrations page. Issue #48, decision 189.",
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": { schema: { $ref: "#/components/schemas/CompatScrubRequest" } },
              "application/x-www-form-urlencoded": { schema: { $ref: "#/components/schemas/CompatScrubRequest" } },
              "application/json": { schema: { $ref: "#/components/schemas/CompatScrubRequest" } },
            },
          },
          responses: {
            "200": {
              description: "One line (CSV) or object (JSON) per number, in the order sent.",
              headers: lookupRateHeaders,
              content: {
                "text/csv": { schema: { type: "string" } },
                "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/CompatResult" } } },
              },
            },
            "400": {
              description: "phoneList missing, an entry or identifier too long or holding a quote/backslash, or output not csv/json: one `ERROR:` line.",
              content: { "text/plain": { schema: { type: "string" } } },
            },
            "401": { description: "No key, or an invalid or revoked one: one `ERROR:` line.", content: { "text/plain": { schema: { type: "string" } } } },
            "403": {
              description: "No plan, no API access, or the period's limit would be exceeded: one `ERROR:` line.",
              content: { "text/plain": { schema: { type: "string" } } },
            },
            "413": {
              description: "More than 60,000 numbers or a body over 6 MiB: one `ERROR:` line.",
              content: { "text/plain": { schema: { type: "string" } } },
            },
            "503": {
              description: "The lists or the call history could not be read (nothing counted): one `ERROR:` line.",
              content: { "text/plain": { schema: { type: "string" } } },
            },
          },
        },
      },
      "/compat/calls": {
        servers: [{ url: "/api" }],
        post: {
          tags: ["Dialers"],
          summary: "Call events from a dialer",
          description:
            "A dialer's calls into the call history, so caps count every call it made. VICIdial vicidial_log columns (call_date, phone_number, " +
            "campaign_id, status, length_in_sec, uniqueid) as a JSON object or array, a form, a CSV export or (GET) a dispo URL's query, with `tz` " +
            "(the dialer server's IANA zone: call_date has no offset; a row with call_date is refused without it, a row without one is recorded at " +
            "the moment it arrives); or a generic webhook's JSON: a record, a list, or " +
            '`{ "calls": [ … ] }` with POST /calls\'s fields. Statuses map as `npm run calls -- import` maps them (decision 185); a repeated ' +
            "dialer call id (uniqueid) is ignored. The key as `Authorization: Bearer`, a `loginId` header or the `key` query parameter. Issue #48.",
          parameters: [
            {
              name: "tz",
              in: "query",
              required: false,
              description: "The dialer server's IANA time zone; required for VICIdial rows.",
              schema: { type: "string" },
            },
            { name: "key", in: "query", required: false, description: "The API key, when no header can be sent.", schema: { type: "string" } },
          ],
          requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/VicidialCall" } } } },
          responses: {
            "201": {
              description: "Recorded.",
              headers: lookupRateHeaders,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      recorded: { type: "integer", description: "Records written." },
                      ignored: { type: "integer", description: "Records ignored as a repeated dialer call id." },
                    },
                  },
                },
              },
            },
            "400": error("tz missing for VICIdial rows or not a time zone, or a body that could not be read (validation_failed, invalid_json)."),
            "422": error("A record is invalid; nothing was recorded (validation_failed, details per record)."),
            ...commonErrors,
          },
        },
      },
      "/ledger": {
        get: {
          tags: ["Ledger"],
          summary: "Your decision ledger, with its proof",
          description:
            "Every decision the product made about a number for your account, in the UTC days asked for: each scrub (one entry naming its certificate's " +
            "SHA-256, result files' hashes, counts and list versions), lookup answer and reservation (each number's outcome, the rules and list versions, " +
            "the answer's SHA-256), opt-out received and honoured, exemption list change and version of your own lists, in one hash chain: each entry's " +
            "hash is SHA-256 of the previous hash and the entry's canonical JSON. Each finished UTC day the chain's head is signed (Ed25519) with a key " +
            "published at /.well-known/scrub-certificate-key, and published at /.well-known/ledger-heads. Save the answer as it is and run " +
            "`npm run verify -- --ledger FILE`: a changed, removed or reordered entry, or a forged head, fails it. Entries are kept five years " +
            "(16 CFR 310.5(a)); signed heads for good. Decision 197.",
          parameters: dayWindowParameters,
          responses: {
            "200": {
              description: "The ledger's window (format decision-ledger/1); `ledger` null before your first entry.",
              headers: rateHeaders,
              content: { "application/json": { schema: { $ref: "#/components/schemas/LedgerExport" } } },
            },
            "422": error("from/to not a date, from after to, a window over 366 days, or over 100,000 entries or 64 MiB (validation_failed)."),
            ...commonErrors,
          },
        },
      },
      "/numbers/{number}/dossier": {
        get: {
          tags: ["Ledger"],
          summary: "One number's dossier",
          description:
            "For one number and a window of UTC days, one document (format number-dossier/1): every decision about it (lookup answers and reservations " +
            "with the rules and list versions and the reason, opt-outs received and honoured, exemption list changes naming it), the window's scrubs and " +
            "versions of your own lists (batch entries: a row's outcome follows from the scrub's certificate and result files), its calls and texts, " +
            "exemption records and opt-outs as stored, the lists holding it now, and the ledger proof: the window's entries from the signed head before " +
            "it, those not about the number as digests only, and the signed day heads. Save it as it is and run `npm run verify -- --dossier FILE`. Decision 197.",
          parameters: [
            { name: "number", in: "path", required: true, description: "The phone number, in any form the scrub reads.", schema: { type: "string" } },
            ...dayWindowParameters,
            {
              name: "format",
              in: "query",
              required: false,
              description: "json (default), or pdf: the same dossier as a PDF for people, its JSON attached inside the PDF.",
              schema: { type: "string", enum: ["json", "pdf"] },
            },
          ],
          responses: {
            "200": {
              description: "The dossier (format number-dossier/1); with format=pdf, the PDF.",
              headers: rateHeaders,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      format: { type: "string", enum: ["number-dossier/1"] },
                      number: { type: "string" },
                      from: { type: "string", format: "date" },
                      to: { type: "string", format: "date" },
                      generatedAt: { type: "string", format: "date-time" },
                      listsNow: { type: ["array", "null"], items: { type: "object" }, description: "The lists and containers holding the number now." },
                      decisions: {
                        type: "array",
                        items: { type: "object" },
                        description: "What each entry naming the number says about it: seq, at, kind, detail.",
                      },
                      batches: { type: "array", items: { type: "object" }, description: "The window's scrubs and own-list versions: seq, at, kind, detail." },
                      calls: { type: "array", items: { type: "object" } },
                      exemptionRecords: { type: "array", items: { type: "object" } },
                      optOuts: { type: "array", items: { type: "object" } },
                      proof: {
                        type: "object",
                        description: "ledger, anchor, items (entries whole, or { seq, digest } for the others) and dayHeads.",
                        properties: {
                          ledger: { type: "string" },
                          anchor: { oneOf: [{ $ref: "#/components/schemas/LedgerDayHead" }, { type: "null" }] },
                          items: { type: "array", items: { type: "object" } },
                          dayHeads: { type: "array", items: { $ref: "#/components/schemas/LedgerDayHead" } },
                        },
                      },
                    },
                  },
                },
                "application/pdf": { schema: { type: "string", format: "binary" } },
              },
            },
            "422": error(
              "number not a valid phone number, from/to not a date or a window over 366 days or 1,000,000 entries, format not json or pdf (validation_failed).",
            ),
            ...commonErrors,
          },
        },
      },
      "/usage": {
        get: {
          tags: ["Account"],
          summary: "Usage and limits",
          description: "The plan, this period's DNC suppression and container usage (the dashboard's figures) and the key's rate limit.",
          responses: {
            "200": { description: "Usage.", headers: rateHeaders, content: { "application/json": { schema: { $ref: "#/components/schemas/Usage" } } } },
            ...commonErrors,
          },
        },
      },
    },
    webhooks: {
      scrubFinished: {
        post: {
          summary: "scrub.completed / scrub.failed",
          description:
            "Sent to the integration's webhook URL when a job submitted with one of its keys finishes. Headers: X-Webhook-Id, X-Webhook-Event, " +
            'X-Webhook-Attempt, X-Webhook-Timestamp (Unix seconds) and X-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>" with the webhook secret>. ' +
            "Answer 2xx within 10 seconds; otherwise, with auto retry on, it is retried after 1, 2, 4 and 8 seconds (5 attempts in all).",
          requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/WebhookEvent" } } } },
          responses: { "200": { description: "Received." } },
        },
      },
    },
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "An API key from the Integrations page (dpt_…)." } },
      schemas: {
        CompatScrubRequest: {
          type: "object",
          required: ["phoneList"],
          properties: {
            loginId: { type: "string", description: "The API key (or send it as the loginId header)." },
            phoneList: {
              type: "string",
              description: "Comma-separated 10-digit numbers, each optionally `|identifier` (up to 60 characters, echoed in Reserved); up to 60,000.",
            },
            campaignId: {
              type: "string",
              description: "The dialer's campaign: the call-history subject its caps count, and its container and exemption list set on the Integrations page.",
            },
            projId: { type: "string", description: "Accepted and ignored (DNCScrub's project)." },
            version: { type: "string", description: "Accepted and ignored: the answer has the same fields whatever the version." },
            output: {
              type: "string",
              enum: ["csv", "json"],
              description: "`csv` (default): no header, one line per number; `json`: an array of CompatResult.",
            },
          },
        },
        CompatResult: {
          type: "object",
          properties: {
            Phone: { type: "string", description: "The number exactly as sent (before its `|identifier`)." },
            ResultCode: {
              type: "string",
              enum: ["C", "D", "O", "E", "I"],
              description: "C on no list, D do not call, O cleared by a relationship or consent, E a relationship on no list, I invalid.",
            },
            Reserved: { type: "string", description: "The entry's identifier (after `|`), or empty." },
            Reason: {
              type: "string",
              description:
                "D: the list's code (litigation, dnc, dnc-tx, dnc-ca, …, container-<id>, stale_list); O: the lists cleared, joined by +; I: the invalid reason's code.",
            },
            RegionAbbrev: { type: "string", description: "The area code's state or province (two letters), or empty." },
            Country: { type: "string", description: "The area code's ISO 3166 country (US, CA, …)." },
            Locale: { type: "string", description: "Always empty (we hold no rate-centre data)." },
            CarrierInfo: { type: "string", description: "Always empty (we hold no carrier data)." },
            NewReassignedAreaCode: { type: "string", description: "Always empty." },
            TZCode: { type: "string", description: "Always empty (DNCScrub's own zone codes); see UTCOffset." },
            CallingWindow: {
              type: "string",
              description: "`NOW` when the calling rules and caps allow a call at the request's instant, else the next lawful instant (UTC, ISO 8601).",
            },
            UTCOffset: { type: "string", description: "The number's UTC offset in minutes at the request's instant, when it has one time zone; else empty." },
            DoNotCallToday: {
              type: "string",
              description:
                "`1` when no call is allowed for the rest of the number's local day, `0` when one is (as DNCScrub's published examples answer `0`); empty for an invalid number.",
            },
            CallingTimeRestrictions: { type: "string", description: "Always empty." },
            EBRType: { type: "string", description: "O and E: the record's basis (purchase, inquiry, consent)." },
            IsWirelessOrVoIP: { type: "string", description: "Always empty (we hold no line-type data)." },
            LineType: { type: "string", description: "Always empty." },
          },
        },
        VicidialCall: {
          type: "object",
          properties: {
            call_date: { type: "string", description: "The dialer server's local time (YYYY-MM-DD HH:MM:SS), read in `tz`." },
            phone_number: { type: "string", description: "The number called." },
            campaign_id: { type: "string", description: "The campaign: the record's subject." },
            status: {
              type: "string",
              description: "The disposition: SALE, NI, XFER, CALLBK, DNC, DEC, NP are conversations; others connected when length_in_sec > 0, else attempted.",
            },
            length_in_sec: { type: "string", description: "The call's length in seconds." },
            uniqueid: { type: "string", description: "VICIdial's call id: a repeat is ignored." },
          },
        },
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: {
                code: {
                  type: "string",
                  enum: [...API_ERROR_CODES],
                },
                message: { type: "string" },
                details: {},
              },
            },
          },
          example: { error: { code: "rate_limited", message: "Rate limit of 1000 requests per hour exceeded. Retry after 1200 seconds." } },
        },
        SuppressionType: {
          type: "string",
          enum: [...SUPPRESSION_TYPE_NAMES],
          description:
            "Which lists suppress: LitigationOnly (the litigator list) or DNCAndLitigation (the litigator list, the federal DNC list, every loaded state list and Canada's National DNCL for Canadian numbers; default).",
        },
        Job: {
          type: "object",
          properties: {
            id: { type: "string", format: "uuid" },
            status: {
              type: "string",
              enum: ["queued", "running", "retrying", "completed", "failed"],
              description: "retrying: the scrub service running the job stopped; it runs again from the start (up to 3 attempts).",
            },
            source: { type: "string", enum: ["web", "api"] },
            file_name: { type: "string" },
            suppression_type: { $ref: "#/components/schemas/SuppressionType" },
            column: { type: ["string", "null"] },
            input: {
              type: "object",
              description: "What the upload was detected as (null until the job has read it): CSV, UTF-16 or Windows-1252 text, Excel (.xlsx), .gz or .zip.",
              properties: {
                format: { type: ["string", "null"], examples: ["Excel workbook (.xlsx)", "gzip-compressed CSV"] },
                encoding: { type: ["string", "null"], examples: ["UTF-8", "UTF-16LE", "Windows-1252"] },
                delimiter: { type: ["string", "null"], examples: ["comma", "tab"] },
                sheet: { type: ["string", "null"] },
              },
            },
            container_id: { type: ["integer", "null"] },
            states: { type: ["array", "null"], items: { type: "string" } },
            progress: {
              type: "object",
              properties: { rows_done: { type: "integer" }, total_rows: { type: "integer" }, percent: { type: "number" } },
            },
            counts: {
              type: "object",
              properties: {
                good: { type: "integer" },
                bad: { type: "integer" },
                invalid: { type: "integer" },
                reasons: { type: "object", additionalProperties: { type: "integer" } },
              },
            },
            error: { type: ["string", "null"] },
            created_at: { type: "string", format: "date-time" },
            started_at: { type: ["string", "null"], format: "date-time" },
            finished_at: { type: ["string", "null"], format: "date-time" },
            files: {
              type: "array",
              items: {
                type: "object",
                properties: {
                  kind: { type: "string", enum: ["good", "bad", "invalid"] },
                  file_name: { type: "string" },
                  records: { type: "integer" },
                  bytes: { type: "integer" },
                  download_url: { type: "string" },
                },
              },
            },
            exemptions: {
              type: ["object", "null"],
              description:
                "Present when the scrub was asked for exemptions: the list, and once completed its version and SHA-256, the instant and the good rows each basis let through.",
              properties: {
                list_id: { type: ["integer", "null"] },
                version: { type: ["integer", "null"] },
                sha256: { type: ["string", "null"] },
                at: { type: ["string", "null"], format: "date-time" },
                counts: {
                  type: ["object", "null"],
                  properties: { purchase: { type: "integer" }, inquiry: { type: "integer" }, consent: { type: "integer" } },
                },
                records: {
                  type: ["object", "null"],
                  description:
                    "Once completed: the records of listed numbers per outcome, each per basis: applied (let the number be called), expired (a list's " +
                    "window ended, or its rule has none for the basis), never_applicable (litigation or your container holds it), not_yet (dated after `at`). " +
                    "bad.csv's exemption column says why per number.",
                  properties: Object.fromEntries(
                    ["applied", "expired", "never_applicable", "not_yet"].map((k) => [
                      k,
                      { type: "object", properties: { purchase: { type: "integer" }, inquiry: { type: "integer" }, consent: { type: "integer" } } },
                    ]),
                  ),
                },
              },
            },
            calling_window: {
              type: ["object", "null"],
              description:
                "Present when the scrub was asked for calling_window=true: the instant (null until the job starts), and once completed the good rows by answer and by time zone.",
              properties: {
                at: { type: ["string", "null"], format: "date-time" },
                rules_version: { type: ["string", "null"], description: `CALLING_RULES_VERSION of the rules applied; ${rulesPageNote(appBase)}.` },
                time_zone_source: { type: ["string", "null"] },
                counts: {
                  type: ["object", "null"],
                  properties: {
                    callable_now: { type: "integer" },
                    later_today: { type: "integer" },
                    not_today: { type: "integer", description: "After hours, or a Sunday or holiday ban, in the number's local time." },
                    no_time_zone: {
                      type: "integer",
                      description:
                        "Toll-free and other non-geographic numbers, counted here only: their rows carry the strictest reading across every US time zone.",
                    },
                  },
                },
                by_time_zone: {
                  type: ["array", "null"],
                  items: { type: "object", properties: { time_zones: { type: "string" }, count: { type: "integer" } } },
                },
                purpose: { type: "string", enum: ["telemarketing", "debt-collection"], description: "The caps the calls were counted against." },
                subject: { type: "string" },
                debt_column: { type: ["string", "null"] },
                calls: {
                  type: ["object", "null"],
                  description:
                    "Once completed: the call history the scrub read once (its records after `since`, their SHA-256, as the certificate names them), CAPS_VERSION, the good rows with a record in 7 days and those the frequency caps held back, per cap.",
                  properties: {
                    caps_version: { type: "string" },
                    history: {
                      type: "object",
                      properties: { since: { type: "string", format: "date-time" }, records: { type: "integer" }, sha256: { type: "string" } },
                    },
                    rows_with_calls: { type: "integer" },
                    held_by_caps: { type: "integer" },
                    by_cap: {
                      type: "array",
                      items: { type: "object", properties: { cap: { type: "string" }, cite: { type: "string" }, rows: { type: "integer" } } },
                    },
                  },
                },
              },
            },
          },
        },
        OptOutInput: {
          type: "object",
          required: ["number", "received_at", "channel", "words"],
          properties: {
            number: {
              type: ["string", "integer"],
              description: "The number that asked not to be called or texted, in any form the scrub reads; refused when it is not a valid US/Canadian number.",
            },
            received_at: {
              type: "string",
              format: "date-time",
              description:
                "When the request was received: ISO-8601 with its UTC offset (the day of receipt is that clock's day); at most 5 minutes in the future, at most five years ago.",
            },
            channel: { type: "string", enum: ["call", "text", "e-mail", "web", "in-person"], description: "How it was received." },
            words: { type: "string", maxLength: 1000, description: 'The words received ("STOP", what the consumer said or wrote), as received.' },
            subject: { type: "string", maxLength: 200, description: "The campaign or subject it came in on, if any." },
          },
        },
        LedgerDayHead: {
          type: "object",
          description:
            'A ledger\'s head at the end of a UTC day, signed: Ed25519 over the canonical JSON of { format: "ledger-day-head/1", ledger, day, seq, hash, signedAt }.',
          properties: {
            ledger: { type: "string", description: "The ledger's public id." },
            day: { type: "string", format: "date" },
            seq: { type: "integer", description: "The day's last entry." },
            hash: { type: "string", description: "That entry's hash (hex)." },
            signedAt: { type: "string", format: "date-time" },
            keyId: { type: "string", description: "The published key that signed it." },
            signature: { type: "string", description: "Base64." },
          },
        },
        LedgerEntry: {
          type: "object",
          description: "hash = SHA-256(prevHash bytes ‖ canonical JSON of { seq, at, kind, numbers, ref, payload }).",
          properties: {
            seq: { type: "integer" },
            at: { type: "string", format: "date-time", description: "When it was recorded." },
            kind: { type: "string", enum: ["scrub", "lookup", "reservation", "opt_out", "opt_out_honoured", "exemption_list", "list_version"] },
            numbers: { type: "array", items: { type: "string" }, description: "The numbers it is about (10 digits); none for a batch." },
            ref: { type: ["string", "null"], description: "A batch's reference: the scrub job, the load, the exemption list." },
            payload: { type: "object", description: "What was decided, by kind." },
            prevHash: { type: "string" },
            hash: { type: "string" },
          },
        },
        LedgerExport: {
          type: "object",
          properties: {
            format: { type: "string", enum: ["decision-ledger/1"] },
            ledger: { type: ["string", "null"], description: "Your ledger's public id (what /.well-known/ledger-heads names)." },
            from: { type: "string", format: "date" },
            to: { type: "string", format: "date" },
            exportedAt: { type: "string", format: "date-time" },
            anchor: {
              oneOf: [{ $ref: "#/components/schemas/LedgerDayHead" }, { type: "null" }],
              description: "The signed head the entries continue from (null: they start the ledger).",
            },
            entries: { type: "array", items: { $ref: "#/components/schemas/LedgerEntry" } },
            dayHeads: { type: "array", items: { $ref: "#/components/schemas/LedgerDayHead" }, description: "The signed heads of the window's days." },
          },
        },
        OptOut: {
          type: "object",
          properties: {
            id: { type: "string", description: "The opt-out's id (a 64-bit integer, as text)." },
            number: { type: "string", description: "The number as 10 digits." },
            received_at: { type: "string", format: "date-time", description: "When the request was received (UTC)." },
            honoured_at: {
              type: ["string", "null"],
              format: "date-time",
              description: "When it took effect in your internal do-not-call list; null when the list load failed (send it again).",
            },
            deadline: {
              type: "string",
              format: "date-time",
              description:
                "The end of the tenth business day after the day of receipt (47 CFR 64.1200(d)(3)); for a Canadian number the end of the 14th day (CRTC Unsolicited Telecommunications Rules), which is never later.",
            },
            deadline_rule: {
              type: "string",
              enum: ["47 CFR 64.1200(d)(3)", "CRTC Unsolicited Telecommunications Rules, internal list within 14 days"],
              description: "The rule the deadline comes from.",
            },
            late: { type: "boolean", description: "Honoured after the deadline, or not honoured and the deadline passed." },
            channel: { type: "string", enum: ["call", "text", "e-mail", "web", "in-person"], description: "How it was received." },
            words: { type: "string", description: "The words received." },
            subject: { type: ["string", "null"], description: "The campaign or subject, if given." },
            source: { type: "string", enum: ["api", "web", "csv"], description: "How it was recorded: the API, the containers screen, or its CSV import." },
            created_at: { type: "string", format: "date-time", description: "When it was recorded." },
          },
        },
        CallRecordInput: {
          type: "object",
          required: ["number", "at", "outcome"],
          properties: {
            number: {
              type: ["string", "integer"],
              description: "The number called or texted, in any form the scrub reads; refused when it is not a valid US/Canadian number.",
            },
            at: {
              type: "string",
              format: "date-time",
              description: "When the call was placed or the text sent: ISO-8601 with its UTC offset; at most 5 minutes in the future, at most five years ago.",
            },
            subject: {
              type: "string",
              maxLength: 200,
              description: "The campaign or subject (the per-subject caps count by it); absent: one default subject for every such record.",
            },
            channel: { type: "string", enum: ["call", "text"], description: "A call or a text (default call): the state caps count both." },
            outcome: {
              type: "string",
              enum: ["attempted", "connected", "conversation"],
              description:
                "attempted (no answer, busy, machine), connected (answered), conversation (a person talked with an agent: Regulation F's 7-day rule starts from it).",
            },
            debt_id: { type: "string", maxLength: 200, description: "The debt a collection call is about (the per-debt caps count by it)." },
            dialer_call_id: {
              type: "string",
              maxLength: 200,
              description: "Your dialer's own id of the call; a repeated id is ignored, so a retry never counts twice.",
            },
            reserved: { type: "boolean", description: "true: an attempt reserved at dial time; DELETE /calls/{id} removes it if it was never dialled." },
          },
        },
        CallRecord: {
          type: "object",
          properties: {
            id: { type: "string", description: "The record's id (a 64-bit integer, as text)." },
            number: { type: "string", description: "The number as 10 digits." },
            at: { type: "string", format: "date-time", description: "When the call was placed (UTC)." },
            subject: { type: "string", description: 'The campaign or subject; "default" when none was given.' },
            channel: { type: "string", enum: ["call", "text"], description: "A call or a text." },
            outcome: { type: "string", enum: ["attempted", "connected", "conversation"], description: "What came of it." },
            debt_id: { type: ["string", "null"], description: "The debt it was about, if given." },
            dialer_call_id: { type: ["string", "null"], description: "The dialer's id of the call, if given." },
            reserved: { type: "boolean", description: "A reservation at dial time (deletable while never dialled)." },
            created_at: { type: "string", format: "date-time", description: "When it was recorded." },
          },
        },
        CallCounts: {
          type: "object",
          properties: {
            calls: { type: "integer", description: "Calls in the window." },
            texts: { type: "integer", description: "Texts in the window." },
            total: { type: "integer", description: "Calls and texts together (the state caps count both)." },
          },
        },
        ExemptionList: {
          type: "object",
          properties: {
            id: { type: "integer" },
            name: { type: "string" },
            description: { type: "string" },
            size: { type: "integer", description: "Numbers on the list." },
            version: { type: "integer", description: "Increases with every load; a scrub's certificate names the version it applied." },
            sha256: { type: ["string", "null"], description: "SHA-256 (hex) of the rows as phone,basis,date lines sorted by phone." },
            created_at: { type: "string", format: "date-time" },
            updated_at: { type: "string", format: "date-time" },
          },
        },
        ExemptionRows: {
          type: "array",
          minItems: 1,
          maxItems: 100000,
          items: {
            type: "object",
            required: ["phone", "basis", "date"],
            properties: {
              phone: { type: ["string", "integer"] },
              basis: { type: "string", enum: ["purchase", "inquiry", "consent"] },
              date: { type: "string", format: "date" },
            },
          },
        },
        Container: {
          type: "object",
          properties: {
            id: { type: "integer" },
            name: { type: "string" },
            description: { type: "string" },
            category: { type: ["string", "null"] },
            size: { type: "integer" },
            internal_dnc: {
              type: "boolean",
              description: "Your internal do-not-call list (your opt-outs): every scrub and lookup checks it, whatever container is chosen.",
            },
            created_at: { type: "string", format: "date-time" },
          },
        },
        ContainerLoad: {
          type: "object",
          properties: {
            id: { type: "string", format: "uuid" },
            container_id: { type: "integer" },
            status: { type: "string", enum: ["queued", "running", "retrying", "completed", "failed"] },
            file_name: { type: "string" },
            progress: { type: "object", properties: { bytes_read: { type: "integer" }, bytes_total: { type: "integer" }, percent: { type: "number" } } },
            counts: { type: "object", properties: { added: { type: "integer" }, already_present: { type: "integer" }, invalid: { type: "integer" } } },
            error: { type: ["string", "null"] },
            created_at: { type: "string", format: "date-time" },
            finished_at: { type: ["string", "null"], format: "date-time" },
          },
        },
        Usage: {
          type: "object",
          properties: {
            plan: { type: ["object", "null"], properties: { id: { type: "string" }, name: { type: "string" }, api_access: { type: "boolean" } } },
            unlimited: { type: "boolean" },
            period: { type: "object", properties: { start: { type: "string" }, end: { type: "string" } } },
            suppression: { $ref: "#/components/schemas/UsageFigures" },
            container: { $ref: "#/components/schemas/UsageFigures" },
            rate_limit: {
              type: "object",
              properties: { limit_per_hour: { type: "integer" }, remaining: { type: "integer" }, reset: { type: "string", format: "date-time" } },
            },
          },
        },
        LookupResult: {
          type: "object",
          properties: {
            input: { type: ["string", "integer"], description: "The entry as sent." },
            number: { type: ["string", "null"], description: "The normalized 10-digit number; null when invalid." },
            valid: { type: "boolean", description: "Whether the entry is a valid North American number (the scrub's Invalid file takes the others)." },
            reason: { type: ["string", "null"], description: "Why the entry is invalid (e.g. wrong_length), else null." },
            message: { type: ["string", "null"], description: "The reason in words." },
            kind: { type: ["string", "null"], description: "The number's kind (e.g. us, toll_free)." },
            region: { type: ["string", "null"], description: "ISO 3166 region of the area code." },
            state: { type: ["string", "null"], description: "US state of the area code." },
            lists: { type: "array", items: { type: "string", enum: [...ADMIN_LIST_KINDS] }, description: "The suppression lists holding it." },
            containers: {
              type: "array",
              items: { type: "object", properties: { id: { type: "integer" }, name: { type: "string" } } },
              description: "Your containers holding it.",
            },
            suppressed: {
              type: "boolean",
              description: "Whether a scrub would put the number in the Bad file: a list or container holds it and no exemption clears it.",
            },
            suppressed_by: {
              type: ["string", "null"],
              description:
                'The list kind (litigation, dnc, a state list such as dnc-tx, Canada\'s National DNCL dnc-ca for Canadian numbers), container, or internal_dnc (your internal do-not-call list: an opt-out, never exempted), that suppresses it under suppression_type; "stale_list" when no fresh ' +
                "list holds it but a list checked is past its freshness rule (see stale_lists): not callable on a stale list's word.",
            },
            exempt: {
              type: ["object", "null"],
              description:
                "Only when the request names exemptions: the record that lets a number on the federal or a state DNC list be called at `at` (basis, its date, and the first day it no longer applies; null for consent), else null.",
              properties: { basis: { type: "string" }, date: { type: "string", format: "date" }, until: { type: ["string", "null"], format: "date" } },
            },
            exemptionNote: {
              type: ["string", "null"],
              description:
                "Only when the request names exemptions: for a suppressed number with a record, why the record did not let it be called, per list still " +
                'holding it ("purchase 2025-05-15: Texas allows 12 months, ended 2026-05-15", "litigation list: never exempted", "consent 2026-12-01: ' +
                "dated after the evaluation instant\"); the same words as bad.csv's exemption column. Null otherwise.",
            },
            timeZones: {
              type: "array",
              items: { type: "string" },
              description:
                "IANA time zones of the number's exchange (Google libphonenumber's data), alphabetical; several when the exchange spans zones; empty for toll-free and other non-geographic numbers.",
            },
            callableNow: {
              type: ["boolean", "null"],
              description:
                "Whether a telemarketing call is lawful at `at` under the federal, state and CRTC calling hours (Sunday and holiday bans included) in every one of timeZones, " +
                "and no call cap of the request's purpose holds it (your call records: e.g. three calls in 24 hours on one subject to a Florida number); " +
                "a number without a time zone (timeZones empty): in every US time zone, the strictest reading. Null for an invalid entry.",
            },
            nextCallAt: {
              type: ["string", "null"],
              description:
                "The earliest lawful instant at or after `at` (YYYY-MM-DDTHH:MM:SSZ); equal to `at` when callableNow; while a call cap holds, the instant the counted call that must leave the window leaves it (the oldest, at the cap), or the next lawful hour after it, whichever is later; null for an invalid entry.",
            },
            nextCallLocal: {
              type: ["string", "null"],
              description:
                "nextCallAt on the number's clock with its UTC offset (e.g. 2026-11-30T08:00:00-05:00): the zone callingNote names first, else the first of " +
                "timeZones. The same as good.csv's next_call_local. Null for an invalid entry or a number without a time zone.",
            },
            callsLast24h: {
              type: ["integer", "null"],
              description:
                "Your call records of the number in the 24 hours up to `at` (calls and texts, every outcome, reservations included; a record stamped a little after `at` too). Null for an invalid entry.",
            },
            callsLast7d: { type: ["integer", "null"], description: "The same over the 7 days up to `at`. Null for an invalid entry." },
            reserved: {
              type: "boolean",
              description:
                "Only when the request reserves: whether an attempt was recorded for the number now (it was valid, not suppressed and callable now).",
            },
            reservationId: {
              type: ["string", "null"],
              description:
                "Only when the request reserves: the reserved call record's id (DELETE /api/v1/calls/{id} releases it if the call is not made), else null.",
            },
            callingNote: {
              type: ["string", "null"],
              description:
                'Why the number may not be called at `at`: the rule that holds the call back, with its citation (e.g. "After 8 p.m. in Oregon (HB 3865)", ' +
                '"Holiday: Rhode Island, Rhode Island Independence Day (R.I. Gen. Laws § 25-1-1)"); empty when callableNow. A number without a time zone: ' +
                '"No time zone for this number: the strictest reading across every US time zone", then why when not callable. The same words as good.csv\'s calling_note. ' +
                'A call cap that holds is named first with its citation and when it lifts ("3 calls in 24 hours to Florida (Fla. Stat. § 501.616(6)(b)): next at 2026-11-29T14:00:00Z"). ' +
                "Null for an invalid entry.",
            },
          },
        },
        LookupAnswer: {
          type: "object",
          properties: {
            data: { type: "array", items: { $ref: "#/components/schemas/LookupResult" } },
            suppression_type: { $ref: "#/components/schemas/SuppressionType" },
            container_id: { type: ["integer", "null"], description: "The container that suppressed too (the request's, else the integration's), or null." },
            at: { type: "string", description: "The instant the calling answers are for (YYYY-MM-DDTHH:MM:SSZ)." },
            calling_rules_version: { type: "string", description: `CALLING_RULES_VERSION of the calling-hour rules applied; ${rulesPageNote(appBase)}.` },
            purpose: { type: "string", description: "The request's purpose (telemarketing or debt-collection): whose call caps applied." },
            subject: { type: "string", description: "The subject the per-subject caps counted." },
            debt_id: { type: ["string", "null"], description: "The debt the per-debt caps counted (null: every record)." },
            channel: { type: "string", description: "The channel asked about (call or text)." },
            caps_version: { type: "string", description: "CAPS_VERSION of the call caps applied (Call limits on the rules page)." },
            lists: {
              type: "array",
              description: "The suppression lists read, each at the version the answers come from.",
              items: {
                type: "object",
                properties: {
                  kind: { type: "string", description: "The list's code (litigation, dnc, dnc-tx …), as in bad.csv's reason." },
                  version: { type: "integer", description: "Its version." },
                },
              },
            },
            containers: {
              type: "array",
              description: "Your containers read, each at its version.",
              items: {
                type: "object",
                properties: {
                  id: { type: "integer", description: "The container's id." },
                  name: { type: "string", description: "Its name." },
                  version: { type: "integer", description: "Its version." },
                },
              },
            },
            stale_lists: {
              type: "array",
              description:
                "The lists suppression_type checks that are past their freshness rule now (empty when none): kind, the release's registry date, its age and the rule, in days.",
              items: {
                type: "object",
                properties: {
                  kind: { type: "string", enum: [...ADMIN_LIST_KINDS], description: "The list's code." },
                  registry_date: { type: "string", format: "date", description: "The release's registry date (a calendar day)." },
                  age_days: { type: "integer", description: "Its age in whole days now." },
                  rule_days: { type: "integer", description: "The days its freshness rule allows." },
                },
              },
            },
            emergency_periods: {
              type: "array",
              description:
                "The emergency no-call periods in force or upcoming at `at` that the calling answers took into account (decision 181; listed on /rules): while one " +
                "covers a number (its states and area codes, the number's local days), callableNow is false and nextCallAt the first lawful instant after it, unless " +
                "the request's exemptions meet the statute's own exceptions. Empty when none.",
              items: {
                type: "object",
                properties: {
                  id: { type: "integer", description: "The period's id (the certificate names it)." },
                  states: { type: "array", items: { type: "string" }, description: "The states it covers (postal codes)." },
                  area_codes: { type: ["array", "null"], items: { type: "integer" }, description: "The area codes it covers; null: the whole of its states." },
                  first_day: { type: "string", format: "date", description: "Its first day, in the number's local days." },
                  last_day: { type: "string", format: "date", description: "Its last day (included)." },
                  authority: { type: "string", description: "Who declared it." },
                  source_url: { type: "string", description: "Where the declaration is published." },
                },
              },
            },
            exemption_list: {
              type: "object",
              description: "Only when the request names exemptions: the list and the version read.",
              properties: { id: { type: "integer" }, version: { type: "integer" } },
            },
          },
        },
        UsageFigures: {
          type: "object",
          properties: { limit: { type: ["integer", "null"] }, used: { type: "integer" }, available: { type: ["integer", "null"] } },
        },
        WebhookEvent: {
          type: "object",
          properties: {
            id: { type: "string", format: "uuid", description: "Stable across retries: use it to ignore duplicates." },
            type: { type: "string", enum: ["scrub.completed", "scrub.failed"] },
            created_at: { type: "string", format: "date-time" },
            data: { type: "object", properties: { job: { $ref: "#/components/schemas/Job" } } },
          },
        },
      },
    },
  } as const;
}

export interface ReferenceField {
  /** The field's name; nested answer fields are named by their path ("data[].callableNow"). */
  name: string;
  type: string;
  description: string;
}

export interface ReferenceEndpoint {
  method: string;
  path: string;
  summary: string;
  description?: string;
  tag: string;
  statuses: { code: string; description: string }[];
  /** The JSON body's fields (the multipart form's when it has no JSON body). */
  requestFields: ReferenceField[];
  /** The success answer's fields, one level of arrays of objects unfolded. */
  answerFields: ReferenceField[];
}

interface Schema {
  $ref?: string;
  type?: string | readonly string[];
  enum?: readonly unknown[];
  items?: Schema;
  format?: string;
  properties?: Record<string, Schema>;
  oneOf?: readonly Schema[];
  description?: string;
}

type Content = Record<string, { schema?: Schema }>;

interface Operation {
  summary: string;
  description?: string;
  tags: readonly string[];
  requestBody?: { content?: Content };
  responses: Record<string, { description: string; content?: Content }>;
}

function resolve(schemas: Record<string, Schema>, schema: Schema | undefined): Schema | undefined {
  if (!schema) return undefined;
  if (typeof schema.$ref === "string") return schemas[schema.$ref.split("/").pop()!];
  return schema;
}

function typeName(schema: Schema): string {
  if (typeof schema.$ref === "string") return schema.$ref.split("/").pop()!;
  if (Array.isArray(schema.enum)) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(" | ");
  const t = typeof schema.type === "string" ? schema.type : schema.type ? schema.type.join(" | ") : "object";
  if (t === "array" && schema.items) return `array of ${typeName(schema.items)}`;
  return schema.format ? `${t} (${schema.format})` : t;
}

function fieldsOf(schemas: Record<string, Schema>, schema: Schema | undefined, prefix = "", depth = 0): ReferenceField[] {
  const object = resolve(schemas, schema);
  // one of several shapes (POST /opt-outs: one opt-out, or many): each one's fields, once
  if (object?.oneOf) {
    const all = object.oneOf.flatMap((alt) => fieldsOf(schemas, alt, prefix, depth));
    return all.filter((f, i) => all.findIndex((g) => g.name === f.name) === i);
  }
  if (!object?.properties) return [];
  const out: ReferenceField[] = [];
  for (const [name, raw] of Object.entries(object.properties as Record<string, Schema>)) {
    const field = resolve(schemas, raw) ?? raw;
    out.push({ name: prefix + name, type: typeName(raw), description: raw.description ?? field.description ?? "" });
    const items = raw.type === "array" || (Array.isArray(raw.type) && raw.type.includes("array")) ? resolve(schemas, raw.items) : undefined;
    if (depth === 0 && items?.properties) out.push(...fieldsOf(schemas, items, `${prefix}${name}[].`, depth + 1));
  }
  return out;
}

const METHODS = new Set(["get", "post", "put", "patch", "delete"]);

/** An answer's fields; an answer that is an array of objects (the compatible scrub's JSON) by their path "[].Field". */
function answerFieldsOf(schemas: Record<string, Schema>, schema: Schema | undefined): ReferenceField[] {
  if (schema?.type === "array") return fieldsOf(schemas, schema.items, "[].");
  return fieldsOf(schemas, schema);
}

/** The endpoints in document order, for the reference page, with their request and answer fields. */
export function referenceEndpoints(): ReferenceEndpoint[] {
  const out: ReferenceEndpoint[] = [];
  // the paths' texts carry no absolute link: any base will do
  const doc = openApiDocumentAt("") as unknown as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
  const schemas = doc.components.schemas;
  for (const [path, ops] of Object.entries(doc.paths)) {
    // a path outside /api/v1 (the dialer compatibility layer) names its own server
    const base = (ops as { servers?: { url: string }[] }).servers?.[0]?.url ?? "/api/v1";
    for (const [method, op] of Object.entries(ops)) {
      if (!METHODS.has(method)) continue;
      const body = op.requestBody?.content;
      const success = Object.entries(op.responses).find(([code]) => code.startsWith("2"))?.[1];
      out.push({
        method: method.toUpperCase(),
        path: `${base}${path}`,
        summary: op.summary,
        description: op.description,
        tag: op.tags[0],
        statuses: Object.entries(op.responses)
          .map(([code, r]) => ({ code, description: r.description }))
          .sort((a, b) => a.code.localeCompare(b.code)),
        requestFields: fieldsOf(schemas, (body?.["application/json"] ?? body?.["multipart/form-data"])?.schema),
        answerFields: answerFieldsOf(schemas, success?.content?.["application/json"]?.schema),
      });
    }
  }
  return out;
}
