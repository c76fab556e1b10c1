import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ApiError, apiHandler, fieldError, json, validate } from "~/api/api.server";
import { discardBody, numbersSchema, readApiBody, saveNumbersAsCsv, type ApiBody } from "~/intake/api-body.server";
import { cleanOriginalName, deleteUpload, type StoredUpload } from "~/intake/upload-store.server";
import { submitScrub } from "~/intake/submit-scrub.server";
import { getJobForUser, listJobsForUser, serializeJob } from "~/models/api-job.server";
import { findOwnContainer } from "~/models/integration.server";
import { isUuid } from "~/utils/ids";
import { requireApiWork } from "~/api/work.server";
import { getScrubService } from "~/utils/scrub.server";
import { appUrl } from "~/utils/env.server";
import {
  CALL_PURPOSES,
  MAX_CALL_TEXT,
  ORDER_WORDS,
  parsePhone,
  parseScrubOrder,
  SUPPRESSION_TYPE_NAMES,
  suppressionTypeChoices,
  US_STATES,
} from "scrub-service/domain";

const stateCodes = new Set<string>(US_STATES.map((s) => s.code));

const submission = z.object({
  suppression_type: z.enum(SUPPRESSION_TYPE_NAMES, { error: `suppression_type must be ${suppressionTypeChoices()}` }),
  column: z.string().trim().min(1).max(200).optional(),
  sheet: z.string().min(1).max(200).optional(),
  container_id: z.coerce.number({ error: "container_id must be a container id" }).int().positive().max(2_147_483_647).nullable().optional(),
  states: z
    .array(z.string().trim().toUpperCase())
    .max(60)
    .refine((list) => list.every((s) => stateCodes.has(s)), "states must be two-letter US state codes, e.g. TX")
    .optional(),
  file_name: z.string().trim().min(1).max(200).optional(),
  calling_window: z
    .union([z.boolean(), z.enum(["true", "false", "1", "0"])], { error: "calling_window must be true or false" })
    .transform((v) => v === true || v === "true" || v === "1")
    .optional(),
  exemptions: z.coerce.number({ error: "exemptions must be an exemption list id" }).int().positive().max(2_147_483_647).nullable().optional(),
  at: z.string().max(40, "at is too long").optional(),
  purpose: z.enum(CALL_PURPOSES, { error: `purpose must be ${CALL_PURPOSES.join(" or ")}` }).optional(),
  subject: z.string().trim().max(MAX_CALL_TEXT, `subject is at most ${MAX_CALL_TEXT} characters`).optional(),
  debt_column: z.string().trim().min(1).max(200).optional(),
});

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(["queued", "running", "retrying", "completed", "failed"]).optional(),
  after: z.string().refine(isUuid, "after must be a job id from next_cursor").optional(),
});

function fromMultipart(fields: Record<string, string[]>) {
  const one = (k: string) => (fields[k]?.length ? fields[k][fields[k].length - 1] : undefined);
  const states = (fields.states ?? [])
    .flatMap((s) => s.split(","))
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    suppression_type: one("suppression_type"),
    column: one("column") || undefined,
    sheet: one("sheet") || undefined,
    container_id: one("container_id") || undefined,
    states: states.length ? states : undefined,
    file_name: one("file_name") || undefined,
    calling_window: one("calling_window") || undefined,
    exemptions: one("exemptions") || undefined,
    at: one("at") || undefined,
    purpose: one("purpose") || undefined,
    subject: one("subject") || undefined,
    debt_column: one("debt_column") || undefined,
  };
}

const handle = apiHandler({
  /** GET /api/v1/scrubs: the account's jobs, newest first (web and API), keyset-paginated. */
  async GET({ request, api }) {
    const url = new URL(request.url);
    const q = validate(listQuery, Object.fromEntries(url.searchParams));
    const { jobs, nextCursor } = await listJobsForUser(api.db, { userId: api.userId, limit: q.limit, status: q.status, after: q.after });
    const base = appUrl();
    return json(api, { data: jobs.map((j) => serializeJob(j.job, j.files, base)), next_cursor: nextCursor });
  },

  /** POST /api/v1/scrubs: a CSV upload (multipart) or a JSON list of numbers; answers 202 with the queued job. */
  async POST({ request, api }) {
    // Checked before the body is read: the key's account must have a plan with API access.
    await requireApiWork(api, "suppression");
    let body: ApiBody | null = null;
    let upload: StoredUpload | null = null;
    let handedOver = false;
    try {
      body = await readApiBody(request, api.userId);
      let input: z.infer<typeof submission>;
      if (body.kind === "multipart") {
        input = validate(submission, fromMultipart(body.fields));
        if (!body.upload) throw fieldError("file", "attach a CSV file");
        upload = body.upload;
      } else {
        if (typeof body.value !== "object" || body.value === null || Array.isArray(body.value)) {
          throw new ApiError(422, "validation_failed", "The JSON body must be an object with suppression_type and numbers.");
        }
        const v = validate(submission.extend({ numbers: numbersSchema }), body.value);
        input = v;
        if (!v.numbers.some((n) => parsePhone(String(n)).ok)) throw fieldError("numbers", "No valid phone numbers found");
        upload = await saveNumbersAsCsv(api.userId, v.numbers);
      }
      let containerId = input.container_id;
      // Without container_id: the integration's default container, while it still exists.
      if (containerId === undefined)
        containerId = api.containerId != null && (await findOwnContainer(api.db, api.userId, api.containerId)) ? api.containerId : null;
      // The order, parsed once (scrub-service/domain order.ts): `at` only with calling_window=true or exemptions. Its
      // bounds and its container's and exemption list's owner are the intake's (submitScrub; 404 when not the key's).
      const parsed = parseScrubOrder(
        {
          userId: api.userId,
          inputPath: upload.path,
          fileName: cleanOriginalName(input.file_name ?? (body.kind === "json" ? "api-numbers.csv" : upload.originalName)),
          suppressionType: input.suppression_type,
          columnName: input.column ?? null,
          sheet: input.sheet ?? null,
          containerId,
          states: input.states ?? [],
          callingWindow: input.calling_window === true,
          exemptionListId: input.exemptions ?? null,
          evaluatedAt: input.at ?? null,
          purpose: input.purpose,
          subject: input.subject ?? null,
          debtColumn: input.debt_column ?? null,
        },
        ORDER_WORDS.api,
      );
      if (!parsed.ok) {
        // a purpose or a debt column without calling times, a debt column without debt collection: the field's error
        if (parsed.field === "purpose" || parsed.field === "debtColumn") {
          const field = parsed.field === "purpose" ? "purpose" : "debt_column";
          throw fieldError(field, parsed.message.replace(`${field} `, ""));
        }
        if (parsed.field !== "evaluatedAt") throw new ApiError(422, "validation_failed", parsed.message);
        throw fieldError("at", parsed.rule === "instant-format" ? parsed.message.replace(/^at /, "").replace(/\.$/, "") : parsed.message);
      }
      const { jobId } = await submitScrub(api.db, await getScrubService(), {
        order: parsed.order,
        upload,
        stateFilterAllowed: true,
        origin: { source: "api", apiKeyId: api.keyId },
      });
      handedOver = true;
      const found = await getJobForUser(api.db, { id: jobId, userId: api.userId });
      const base = appUrl();
      return json(api, { job: serializeJob(found!.job, found!.files, base) }, { status: 202, headers: { Location: `${base}/api/v1/scrubs/${jobId}` } });
    } finally {
      if (!handedOver) {
        if (upload) await deleteUpload(upload).catch(() => {});
        else await discardBody(body);
      }
    }
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
