import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ApiError, apiHandler, json, notFound, validate } from "~/utils/api.server";
import { discardBody, numbersSchema, readApiBody, saveNumbersAsCsv, type ApiBody } from "~/utils/api-upload.server";
import { cleanOriginalName, deleteUpload, type StoredUpload } from "~/utils/uploads.server";
import { getJobForUser, listJobsForUser, serializeJob } from "~/models/api-job.server";
import { findOwnContainer, isUuid } from "~/models/integration.server";
import { reserveUsage } from "~/models/usage.server";
import { recordAudit } from "~/models/user.server";
import { requireApiWork, usageErrorToApi } from "~/utils/api-work.server";
import { createScrubJob, getScrubService, parsePhone, US_STATES } from "~/utils/scrub.server";
import { PurgeInputError, readCsvSummary } from "~/utils/purge-start.server";
import { CSV_MESSAGES, PRECHECK_ROWS } from "~/utils/purge-wizard";
import { appUrl } from "~/utils/env.server";

const SUPPRESSION_TYPES = ["LitigationOnly", "DNCAndLitigation"] as const;
const stateCodes = new Set<string>(US_STATES.map((s) => s.code));

const submission = z.object({
  suppression_type: z.enum(SUPPRESSION_TYPES, { error: "suppression_type must be LitigationOnly or DNCAndLitigation" }),
  column: z.string().trim().min(1).max(200).optional(),
  container_id: z.coerce.number({ error: "container_id must be a container id" }).int().positive().max(2_147_483_647).nullable().optional(),
  states: z
    .array(z.string().trim().toUpperCase())
    .max(60)
    .refine((list) => list.every((s) => stateCodes.has(s)), "states must be two-letter US state codes, e.g. TX")
    .optional(),
  file_name: z.string().trim().min(1).max(200).optional(),
});

function fieldError(field: string, message: string): ApiError {
  return new ApiError(422, "validation_failed", `${field}: ${message}`, [{ field, message }]);
}

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(["queued", "running", "completed", "failed"]).optional(),
  after: z.string().refine(isUuid, "after must be a job id from next_cursor").optional(),
});

function fromMultipart(fields: Record<string, string[]>) {
  const one = (k: string) => (fields[k]?.length ? fields[k][fields[k].length - 1] : undefined);
  const states = (fields.states ?? []).flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);
  return {
    suppression_type: one("suppression_type"),
    column: one("column") || undefined,
    container_id: one("container_id") || undefined,
    states: states.length ? states : undefined,
    file_name: one("file_name") || undefined,
  };
}

const handle = apiHandler({
  /** GET /api/v1/scrubs: the account's jobs, newest first (web and API), keyset-paginated. */
  async GET({ request, api }) {
    const url = new URL(request.url);
    const q = validate(listQuery, Object.fromEntries(url.searchParams));
    const { jobs, nextCursor } = await listJobsForUser(api.db, { userId: api.userId, limit: q.limit, status: q.status, after: q.after });
    const base = appUrl(request);
    return json(api, { data: jobs.map((j) => serializeJob(j.job, j.files, base)), next_cursor: nextCursor });
  },

  /** POST /api/v1/scrubs: a CSV upload (multipart) or a JSON list of numbers; answers 202 with the queued job. */
  async POST({ request, api }) {
    await requireApiWork(api, "suppression");
    let body: ApiBody | null = null;
    let upload: StoredUpload | null = null;
    let handedOver = false;
    try {
      body = await readApiBody(request, api.userId);
      let input: z.infer<typeof submission>;
      let jsonNumbers: (string | number)[] = [];
      let fileName: string;
      if (body.kind === "multipart") {
        input = validate(submission, fromMultipart(body.fields));
        if (!body.upload) throw new ApiError(422, "validation_failed", "file: attach a CSV file", [{ field: "file", message: "attach a CSV file" }]);
        upload = body.upload;
        fileName = cleanOriginalName(input.file_name ?? upload.originalName);
      } else {
        const raw = (body.value ?? {}) as Record<string, unknown>;
        if (typeof body.value !== "object" || body.value === null || Array.isArray(body.value)) {
          throw new ApiError(422, "validation_failed", "The JSON body must be an object with suppression_type and numbers.");
        }
        const v = validate(submission.extend({ numbers: numbersSchema }), raw);
        input = v;
        jsonNumbers = v.numbers;
        upload = await saveNumbersAsCsv(api.userId, jsonNumbers);
        fileName = cleanOriginalName(input.file_name ?? "api-numbers.csv");
      }
      let containerId: number | null;
      if (input.container_id === undefined) {
        // The integration's default container, while it still exists.
        containerId = api.containerId != null && (await findOwnContainer(api.db, api.userId, api.containerId)) ? api.containerId : null;
      } else {
        containerId = input.container_id;
        if (containerId != null && !(await findOwnContainer(api.db, api.userId, containerId))) throw notFound("Container");
      }

      const service = await getScrubService();
      // The wizard's pre-check (DECISIONS 'Phone numbers'): only an unreadable file or a column without any
      // phone number among its first rows blocks; other invalid numbers go to the invalid file.
      if (body.kind === "multipart") {
        let summary: Awaited<ReturnType<typeof readCsvSummary>>;
        try {
          summary = await readCsvSummary(service, upload);
        } catch (e) {
          if (e instanceof PurgeInputError) throw fieldError("file", e.message);
          throw e;
        }
        const column = input.column ?? summary.phoneColumn ?? summary.headers[0];
        const index = summary.headers.indexOf(column);
        if (index < 0) throw fieldError("column", CSV_MESSAGES.columnMissing(column));
        if (!summary.rows.slice(0, PRECHECK_ROWS).some((r) => parsePhone(r[index] ?? "").ok)) {
          throw fieldError("column", CSV_MESSAGES.noPhones(column));
        }
      } else if (!jsonNumbers.some((n) => parsePhone(String(n)).ok)) {
        throw fieldError("numbers", "No valid phone numbers found");
      }
      const rows = await service.countRecords(upload.path);
      if (rows <= 0) throw fieldError("file", CSV_MESSAGES.empty);
      const jobId = await api.db.transaction().execute(async (trx) => {
        await reserveUsage(trx, { userId: api.userId, kind: "suppression", amount: rows });
        const id = await createScrubJob(trx, {
          userId: api.userId,
          fileName,
          inputPath: upload!.path,
          suppressionType: input.suppression_type,
          columnName: input.column ?? null,
          containerId,
          states: input.states?.length ? input.states : null,
          usageReserved: rows,
          source: "api",
          apiKeyId: api.keyId,
        });
        await recordAudit(trx, {
          actorId: api.userId,
          action: "scrub.started",
          targetType: "scrub_job",
          targetId: id,
          details: { fileName, suppressionType: input.suppression_type, rows, source: "api", apiKeyId: api.keyId },
        });
        return id;
      });
      handedOver = true;
      try {
        await service.enqueue(jobId);
      } catch (e) {
        // The job row is queued; the engine's recovery picks it up. The client polls as usual.
        console.warn(`[api] enqueue of ${jobId} deferred: ${e instanceof Error ? e.message : e}`);
      }
      const found = await getJobForUser(api.db, { id: jobId, userId: api.userId });
      const base = appUrl(request);
      return json(api, { job: serializeJob(found!.job, found!.files, base) }, { status: 202, headers: { Location: `${base}/api/v1/scrubs/${jobId}` } });
    } catch (e) {
      throw usageErrorToApi(e);
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
