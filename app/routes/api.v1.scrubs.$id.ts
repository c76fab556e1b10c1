import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler, json, notFound } from "~/api/api.server";
import { getJobForUser, serializeJob } from "~/models/api-job.server";
import { appUrl } from "~/utils/env.server";

/** GET /api/v1/scrubs/:id: status, progress, counts and (when completed) the result files. */
const handle = apiHandler({
  async GET({ params, api }) {
    const found = await getJobForUser(api.db, { id: params.id ?? "", userId: api.userId });
    if (!found) throw notFound("Scrub job");
    return json(api, { job: serializeJob(found.job, found.files, appUrl()) });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
