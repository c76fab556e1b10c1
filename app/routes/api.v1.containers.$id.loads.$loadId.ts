import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler, json, notFound } from "~/api/api.server";
import { getContainerLoad, parseListId } from "~/models/container.server";
import { serializeLoad } from "~/api/work.server";

/** GET /api/v1/containers/:id/loads/:loadId: progress and counts of an add. */
const handle = apiHandler({
  async GET({ params, api }) {
    const listId = parseListId(params.id);
    const load = listId ? await getContainerLoad(api.db, { id: params.loadId ?? "", userId: api.userId }) : undefined;
    if (!load || load.listId !== listId) throw notFound("Container load");
    return json(api, { load: serializeLoad(load) });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
