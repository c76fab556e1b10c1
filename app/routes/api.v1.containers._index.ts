import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler, json } from "~/api/api.server";
import { listContainers } from "~/models/container.server";

/** GET /api/v1/containers: the account's containers (ids for container_id and for adding numbers). */
const handle = apiHandler({
  async GET({ api }) {
    const containers = await listContainers(api.db, api.userId);
    return json(api, {
      data: containers.map((c) => ({
        id: c.id,
        name: c.name,
        description: c.description,
        category: c.categoryName,
        size: c.size,
        internal_dnc: c.internalDnc,
        created_at: c.createdAt,
      })),
    });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
