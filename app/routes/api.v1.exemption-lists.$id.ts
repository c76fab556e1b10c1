import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiHandler, json, notFound, validate } from "~/api/api.server";
import { requireApiWork } from "~/api/work.server";
import { exemptionErrorToApi, exemptionSourceOf, jsonObjectOf, jsonRowsSchema, serializeExemptionList } from "~/api/exemptions.server";
import { discardBody, readApiBody, type ApiBody } from "~/intake/api-body.server";
import { readExemptionSource, submitExemptionLoad } from "~/intake/exemption-load.server";
import { getExemptionList, parseExemptionListId } from "~/models/exemption.server";

const mode = z.enum(["add", "replace"], { error: "mode must be add or replace" }).default("add");
const jsonSchema = z.object({ mode, rows: jsonRowsSchema });
const multipartSchema = z.object({ mode });

/**
 * GET /api/v1/exemption-lists/:id: one of the account's exemption lists (another account's id: 404).
 * POST: rows loaded into it, all or none: `mode` add (new numbers join; a number already on the list keeps its
 * basis and the later date) or replace (the rows become the whole list); JSON `rows` or a multipart CSV `file`.
 * 200 with the list's new version and SHA-256; 422 naming every bad line (decision 161).
 */
const handle = apiHandler({
  async GET({ api, params }) {
    const id = parseExemptionListId(params.id);
    const list = id ? await getExemptionList(api.db, { id, userId: api.userId }) : undefined;
    if (!list) throw notFound("Exemption list");
    return json(api, { exemption_list: serializeExemptionList(list) });
  },

  async POST({ api, params, request }) {
    const id = parseExemptionListId(params.id);
    const list = id ? await getExemptionList(api.db, { id, userId: api.userId }) : undefined;
    if (!list) throw notFound("Exemption list");
    await requireApiWork(api, "suppression");
    let body: ApiBody | null = null;
    try {
      body = await readApiBody(request, api.userId);
      const input =
        body.kind === "json"
          ? validate(jsonSchema, jsonObjectOf(body))
          : { ...validate(multipartSchema, { mode: body.fields.mode?.at(-1) || undefined }), rows: undefined };
      const source = exemptionSourceOf(body, input.rows);
      let rows;
      try {
        rows = await readExemptionSource(source);
      } catch (e) {
        throw exemptionErrorToApi(e, body.kind === "json" ? "rows" : "file");
      }
      try {
        const r = await submitExemptionLoad(api.db, { userId: api.userId, listId: list.id, listName: list.name, mode: input.mode, rows, origin: "api" });
        return json(api, { exemption_list: serializeExemptionList(r.list), written: r.written });
      } catch (e) {
        throw exemptionErrorToApi(e, body.kind === "json" ? "rows" : "file");
      }
    } finally {
      await discardBody(body);
    }
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
