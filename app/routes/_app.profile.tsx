import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/accounts/auth.server";
import { PageHeader } from "~/components/ui/page-header";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

/** Placeholder page (spec: an empty placeholder). */
export default function ProfilePage() {
  return <PageHeader title="Profile" />;
}
