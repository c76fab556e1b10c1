import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { flashToast } from "~/utils/session.server";
import { getContainer, getContainerLoad } from "~/models/container.server";
import { describeLoad } from "~/components/lists/list-text";
import { LoadProgress } from "~/components/lists/list-ui";
import { RouteErrorBoundary } from "~/components/route-error-boundary";

export const meta: MetaFunction = () => [{ title: "Loading numbers · Data Purging Tool" }];

/** Progress of a file load into one of the user's containers; when it completes, back to /containers with a toast. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const load = await getContainerLoad(db, { id: params.loadId ?? "", userId: user.id });
  if (!load) throw data("Load not found", { status: 404 });
  const container = await getContainer(db, { id: load.listId, userId: user.id });
  if (!container) throw data("Load not found", { status: 404 });
  if (load.status === "completed") {
    throw redirect("/containers", {
      headers: {
        "Set-Cookie": await flashToast(request, {
          kind: "success",
          title: "Numbers Added",
          description: `${container.name}: ${describeLoad(load, load.mode)}`,
        }),
      },
    });
  }
  return { load, containerName: container.name };
}

export default function ContainerLoadPage() {
  const { load, containerName } = useLoaderData<typeof loader>();
  return (
    <LoadProgress load={load} listName={containerName} backHref="/containers" backLabel="Back to Storage Containers" failedTitle="Failed to add numbers." />
  );
}

export { RouteErrorBoundary as ErrorBoundary };
