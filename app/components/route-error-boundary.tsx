import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { AccessDenied } from "./access-denied";
import type { RoleName } from "db/schema";

/** Error boundary for pages inside the app shell: Access Denied for 403, not-found for 404. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const d = error.data as { accessDenied?: boolean; message?: string; roles?: RoleName[] } | undefined;
    if (error.status === 403 && d?.accessDenied) return <AccessDenied message={d.message ?? ""} roles={d.roles ?? []} />;
    if (error.status === 404) {
      return (
        <section className="mx-auto mt-12 max-w-lg text-center">
          <h1 className="text-xl font-semibold">Oops! Page not found</h1>
          <Link to="/dashboard" className="mt-4 inline-block text-blue-600 underline">
            Back to Dashboard
          </Link>
        </section>
      );
    }
    return (
      <section role="alert" className="mx-auto mt-12 max-w-lg text-center">
        <h1 className="text-xl font-semibold">{error.status === 403 ? "Access Denied" : "Request failed"}</h1>
        <p className="mt-2 text-slate-600">{typeof error.data === "string" ? error.data : error.statusText}</p>
      </section>
    );
  }
  console.error(error);
  return (
    <section role="alert" className="mx-auto mt-12 max-w-lg text-center">
      <h1 className="text-xl font-semibold">Something went wrong</h1>
      <p className="mt-2 text-slate-600">An unexpected error occurred. Please try again.</p>
    </section>
  );
}
