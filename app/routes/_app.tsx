import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/accounts/auth.server";
import { readSidebarExpanded } from "~/utils/sidebar.server";
import { AppShell } from "~/components/app-shell";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { user, sidebarExpanded: readSidebarExpanded(request) };
}

export default function AppLayout() {
  const { user, sidebarExpanded } = useLoaderData<typeof loader>();
  return (
    <AppShell user={user} expanded={sidebarExpanded}>
      <Outlet />
    </AppShell>
  );
}
