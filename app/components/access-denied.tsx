import type { RoleName } from "db/schema";

export function AccessDenied({ message, roles }: { message: string; roles: RoleName[] }) {
  return (
    <section role="alert" className="mx-auto mt-12 max-w-lg rounded-xl border border-red-200 bg-white p-8 text-center shadow-sm">
      <h1 className="text-xl font-semibold text-red-700">Access Denied</h1>
      <p className="mt-3 text-slate-700">{message}</p>
      <p className="mt-4 text-sm text-slate-600">
        Your current role: <span className="font-medium">{roles.length ? roles.join(", ") : "No roles assigned"}</span>
      </p>
      <p className="mt-2 text-sm text-slate-500">Please contact your administrator if you need access.</p>
    </section>
  );
}
