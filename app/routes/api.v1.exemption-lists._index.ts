import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiHandler, json, validate } from "~/api/api.server";
import { requireApiWork } from "~/api/work.server";
import { exemptionErrorToApi, exemptionSourceOf, jsonObjectOf, jsonRowsSchema, serializeExemptionList } from "~/api/exemptions.server";
import { discardBody, readApiBody, type ApiBody } from "~/intake/api-body.server";
import { createExemptionListWithRows, readExemptionSource } from "~/intake/exemption-load.server";
import { listExemptionLists } from "~/models/exemption.server";
import { appUrl } from "~/utils/env.server";

const fields = {
  name: z.string({ error: "name is required" }).trim().min(1, "name is required").max(100, "name must be at most 100 characters"),
  description: z.string().trim().max(500, "description must be at most 500 characters").optional(),
};
const jsonSchema = z.object({ ...fields, rows: jsonRowsSchema });
const multipartSchema = z.object(fields);

/**
 * GET /api/v1/exemption-lists: the account's exemption lists (ids for a scrub's and a lookup's `exemptions`).
 * POST: a new list with its rows, all or none (JSON `{name, description?, rows: [{phone, basis, date}]}` or
 * multipart `name`, `description`, CSV `file`); 201 with the list, 422 naming every bad line (decision 161).
 */
const handle = apiHandler({
  async GET({ api }) {
    const lists = await listExemptionLists(api.db, api.userId);
    return json(api, { data: lists.map(serializeExemptionList) });
  },

  async POST({ api, request }) {
    await requireApiWork(api, "suppression");
    let body: ApiBody | null = null;
    try {
      body = await readApiBody(request, api.userId);
      const one = (k: string) => (body?.kind === "multipart" ? body.fields[k]?.at(-1) : undefined);
      const input =
        body.kind === "json"
          ? validate(jsonSchema, jsonObjectOf(body))
          : { ...validate(multipartSchema, { name: one("name"), description: one("description") }), rows: undefined };
      const source = exemptionSourceOf(body, input.rows);
      let rows;
      try {
        rows = await readExemptionSource(source);
      } catch (e) {
        throw exemptionErrorToApi(e, body.kind === "json" ? "rows" : "file");
      }
      let r;
      try {
        r = await createExemptionListWithRows(api.db, {
          userId: api.userId,
          name: input.name,
          description: input.description,
          rows,
          origin: "api",
          apiKeyId: api.keyId,
        });
      } catch (e) {
        throw exemptionErrorToApi(e, body.kind === "json" ? "rows" : "file");
      }
      const list = r.list;
      return json(
        api,
        { exemption_list: serializeExemptionList(r.list) },
        { status: 201, headers: { Location: `${appUrl()}/api/v1/exemption-lists/${list.id}` } },
      );
    } finally {
      await discardBody(body);
    }
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
