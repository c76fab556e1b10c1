import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ADMIN_ROLES, requireRole } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { flashToast } from "~/utils/session.server";
import { getDncList, getDncLoad } from "~/models/dnc.server";
import { LoadProgress } from "~/components/lists/list-ui";
import { RouteErrorBoundary } from "~/components/route-error-boundary";
import { DNC_ACCESS_MESSAGE, DNC_TEXT, dncDoneToast } from "~/components/lists/list-text";

export const meta: MetaFunction = () => [{ title: "Loading DNC list · Data Purging Tool" }];

/** Progress of a DNC file load; when it completes, back to /dnc with the spec's toast. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, ADMIN_ROLES, DNC_ACCESS_MESSAGE);
  const db = await getDb();
  const load = await getDncLoad(db, params.loadId ?? "");
  if (!load) throw data("Load not found", { status: 404 });
  if (load.status === "completed") {
    throw redirect("/dnc", { headers: { "Set-Cookie": await flashToast(request, dncDoneToast(load.mode, load)) } });
  }
  const list = await getDncList(db, load.suppressionType);
  return { load, listName: list?.name ?? "DNC list" };
}

export default function DncLoadPage() {
  const { load, listName } = useLoaderData<typeof loader>();
  return (
    <LoadProgress
      load={load}
      listName={listName}
      backHref="/dnc"
      backLabel="Back to DNC Management"
      failedTitle={load.mode === "add" ? DNC_TEXT.addFailed : DNC_TEXT.updateFailed}
    />
  );
}

export { RouteErrorBoundary as ErrorBoundary };
