import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/utils/auth.server";
import { PageHeader } from "~/components/ui/page-header";
import { RouteErrorBoundary } from "~/components/route-error-boundary";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { firstName: user.firstName };
}

export default function Dashboard() {
  const { firstName } = useLoaderData<typeof loader>();
  return <PageHeader title="Dashboard" subtitle={`Welcome back, ${firstName}.`} />;
}

export { RouteErrorBoundary as ErrorBoundary };
