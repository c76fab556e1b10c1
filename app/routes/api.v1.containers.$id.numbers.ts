import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ApiError, apiHandler, json, notFound, validate } from "~/utils/api.server";
import { discardBody, numbersSchema, readApiBody, saveNumbersAsCsv, type ApiBody } from "~/utils/api-upload.server";
import { cleanOriginalName, deleteUpload, type StoredUpload } from "~/utils/uploads.server";
import { getContainer, getContainerLoad, parseListId } from "~/models/container.server";
import { reserveUsage } from "~/models/usage.server";
import { recordAudit } from "~/models/user.server";
import { createListLoad, getScrubService, parsePhone } from "~/utils/scrub.server";
import { appUrl } from "~/utils/env.server";
import { requireApiWork, serializeLoad, usageErrorToApi } from "~/utils/api-work.server";

/**
 * POST /api/v1/containers/:id/numbers: adds numbers to one of the account's containers, from a CSV file
 * (multipart `file`) or JSON `{ "numbers": [...] }`. Counts against the plan's container limit; 202 with the load.
 */
const handle = apiHandler({
  async POST({ request, params, api }) {
    const listId = parseListId(params.id);
    const container = listId ? await getContainer(api.db, { id: listId, userId: api.userId }) : undefined;
    if (!container) throw notFound("Container");
    await requireApiWork(api, "container");
    let body: ApiBody | null = null;
    let upload: StoredUpload | null = null;
    let handedOver = false;
    try {
      body = await readApiBody(request, api.userId);
      let fileName: string;
      if (body.kind === "multipart") {
        if (!body.upload) throw new ApiError(422, "validation_failed", "file: attach a CSV file", [{ field: "file", message: "attach a CSV file" }]);
        upload = body.upload;
        fileName = cleanOriginalName(upload.originalName);
      } else {
        if (typeof body.value !== "object" || body.value === null || Array.isArray(body.value)) {
          throw new ApiError(422, "validation_failed", "The JSON body must be an object with numbers.");
        }
        const { numbers } = validate(z.object({ numbers: numbersSchema }), body.value);
        if (!numbers.some((n) => parsePhone(String(n)).ok)) {
          const message = "You must enter at least one valid 10-digit phone number.";
          throw new ApiError(422, "validation_failed", `numbers: ${message}`, [{ field: "numbers", message }]);
        }
        upload = await saveNumbersAsCsv(api.userId, numbers);
        fileName = "api-numbers.csv";
      }
      const service = await getScrubService();
      const rows = await service.countRecords(upload.path);
      if (rows <= 0) {
        throw new ApiError(422, "validation_failed", "file: CSV file appears to be empty or has no data rows", [
          { field: "file", message: "CSV file appears to be empty or has no data rows" },
        ]);
      }
      const loadId = await api.db.transaction().execute(async (trx) => {
        await reserveUsage(trx, { userId: api.userId, kind: "container", amount: rows });
        const id = await createListLoad(trx, {
          listId: container.id,
          mode: "add",
          userId: api.userId,
          fileName,
          inputPath: upload!.path,
          usageReserved: rows,
        });
        await recordAudit(trx, {
          actorId: api.userId,
          action: "container.load",
          targetType: "container",
          targetId: String(container.id),
          details: { name: container.name, loadId: id, source: "api", apiKeyId: api.keyId },
        });
        return id;
      });
      handedOver = true;
      try {
        await service.enqueueListLoad(loadId);
      } catch (e) {
        console.warn(`[api] enqueue of load ${loadId} deferred: ${e instanceof Error ? e.message : e}`);
      }
      const load = await getContainerLoad(api.db, { id: loadId, userId: api.userId });
      const location = `${appUrl(request)}/api/v1/containers/${container.id}/loads/${loadId}`;
      return json(api, { load: serializeLoad(load!) }, { status: 202, headers: { Location: location } });
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
