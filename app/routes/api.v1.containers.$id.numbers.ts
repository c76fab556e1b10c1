import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ApiError, apiHandler, fieldError, json, notFound, validate } from "~/api/api.server";
import { discardBody, numbersSchema, readApiBody, saveNumbersAsCsv, type ApiBody } from "~/intake/api-body.server";
import { deleteUpload, type StoredUpload } from "~/intake/upload-store.server";
import { submitListLoad } from "~/intake/submit-list-load.server";
import { getContainer, getContainerLoad, parseListId } from "~/models/container.server";
import { getScrubService } from "~/utils/scrub.server";
import { parsePhone } from "scrub-service/domain";
import { appUrl } from "~/utils/env.server";
import { requireApiWork, serializeLoad } from "~/api/work.server";
import { PHONE_ENTRY_MESSAGES } from "~/intake/typed-numbers";

/**
 * POST /api/v1/containers/:id/numbers: adds numbers to one of the account's containers, from a CSV file
 * (multipart `file`) or JSON `{ "numbers": [...] }`. Counts against the plan's container limit; 202 with the load.
 */
const handle = apiHandler({
  async POST({ request, params, api }) {
    const listId = parseListId(params.id);
    const container = listId ? await getContainer(api.db, { id: listId, userId: api.userId }) : undefined;
    if (!container) throw notFound("Container");
    // Checked before the body is read: the key's account must have a plan with API access.
    await requireApiWork(api, "container");
    let body: ApiBody | null = null;
    let upload: StoredUpload | null = null;
    let handedOver = false;
    try {
      body = await readApiBody(request, api.userId);
      if (body.kind === "multipart") {
        if (!body.upload) throw fieldError("file", "attach a CSV file");
        upload = body.upload;
      } else {
        if (typeof body.value !== "object" || body.value === null || Array.isArray(body.value)) {
          throw new ApiError(422, "validation_failed", "The JSON body must be an object with numbers.");
        }
        const { numbers } = validate(z.object({ numbers: numbersSchema }), body.value);
        if (!numbers.some((n) => parsePhone(String(n)).ok)) throw fieldError("numbers", PHONE_ENTRY_MESSAGES.noneValid);
        upload = { ...(await saveNumbersAsCsv(api.userId, numbers)), originalName: "api-numbers.csv" };
      }
      const source = { kind: "file" as const, upload };
      const { loadId } = await submitListLoad(api.db, await getScrubService(), {
        userId: api.userId,
        mode: "add",
        source,
        reserve: true,
        list: container.id,
        audit: (id, load) => ({
          action: "container.load",
          targetType: "container",
          targetId: String(id),
          details: { name: container.name, loadId: load, source: "api", apiKeyId: api.keyId },
        }),
      });
      handedOver = true;
      const load = await getContainerLoad(api.db, { id: loadId, userId: api.userId });
      const location = `${appUrl()}/api/v1/containers/${container.id}/loads/${loadId}`;
      return json(api, { load: serializeLoad(load!) }, { status: 202, headers: { Location: location } });
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
