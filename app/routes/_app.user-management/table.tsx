import { Form, Link, useNavigation, useSubmit } from "@remix-run/react";
import { inputClass, secondaryButtonClass } from "~/components/ui/form";
import type { DataTableColumn } from "~/components/ui/data-table";
import { NO_PLAN } from "~/models/user-list";
import type { UserStatus } from "db/schema";

/** The user list's parts: filters, row actions and the columns (typed by what they read, not by the route's loader). */

type UserRow = { id: string; email: string; status: UserStatus; can: { edit: boolean; block: boolean; delete: boolean } };
type ListFilters = { search: string; status: string; plan: string };
type PlanOption = { id: string; name: string };

export function hrefWith(search: string, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === "") params.delete(k);
    else params.set(k, v);
  }
  for (const [k, v] of [...params.entries()]) if (v === "") params.delete(k);
  const qs = params.toString();
  return qs ? `/user-management?${qs}` : "/user-management";
}

/** A filter's select; its label is for screen readers only (the first option names the filter). */
export function FilterSelect({
  id,
  name,
  label,
  defaultValue,
  children,
}: {
  id: string;
  name: string;
  label: string;
  defaultValue: string;
  children: React.ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} className={inputClass}>
        {children}
      </select>
    </div>
  );
}

export function Filters({ filters, plans }: { filters: ListFilters; plans: PlanOption[] }) {
  const submit = useSubmit();
  return (
    <Form
      method="get"
      role="search"
      className="flex flex-wrap items-end gap-3 border-b border-slate-200 p-4"
      onChange={(e) => {
        const target = e.target as HTMLElement;
        if (target.tagName === "SELECT") submit(e.currentTarget, { replace: true });
      }}
    >
      <div className="w-full sm:w-auto sm:min-w-56 sm:flex-1">
        <label htmlFor="um-search" className="sr-only">
          Search users
        </label>
        <input
          id="um-search"
          type="search"
          name="search"
          defaultValue={filters.search}
          placeholder="Search by email, name, or company..."
          className={inputClass}
        />
      </div>
      <FilterSelect id="um-status" name="status" label="Status" defaultValue={filters.status}>
        <option value="">All Status</option>
        <option value="Active">Active</option>
        <option value="Blocked">Blocked</option>
        <option value="Pending">Pending</option>
      </FilterSelect>
      <FilterSelect id="um-plan" name="plan" label="Plan" defaultValue={filters.plan}>
        <option value="">All Plans</option>
        <option value={NO_PLAN}>No Plan</option>
        {plans.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </FilterSelect>
      <button type="submit" className={secondaryButtonClass}>
        Search
      </button>
      {(filters.search || filters.status || filters.plan) && (
        <Link to="/user-management" className="text-sm text-blue-600 hover:underline">
          Clear filters
        </Link>
      )}
    </Form>
  );
}

/** For invited users who have not set a password yet: a fresh link (the old one stops working). */
export function ResendInvitation({ user }: { user: UserRow }) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "resend-invitation" && navigation.formData?.get("userId") === user.id;
  return (
    <Form method="post" preventScrollReset className="mt-1">
      <input type="hidden" name="intent" value="resend-invitation" />
      <input type="hidden" name="userId" value={user.id} />
      <button
        type="submit"
        disabled={busy}
        className="text-xs whitespace-nowrap text-blue-700 hover:underline"
        aria-label={`Resend Invitation to ${user.email}`}
      >
        {busy ? "Sending..." : "Resend Invitation"}
      </button>
    </Form>
  );
}

/**
 * Opens a dialog with a GET form (the list's filters and page ride along as hidden fields): a real button that
 * works with or without JavaScript, and the dialog is in the URL.
 */
export function OpenDialogButton({
  search,
  dialog,
  id,
  className,
  label,
  children,
}: {
  search: string;
  dialog: "create" | "edit" | "delete";
  id?: string;
  className: string;
  label?: string;
  children: React.ReactNode;
}) {
  const keep = [...new URLSearchParams(search).entries()].filter(([k, v]) => k !== "dialog" && k !== "id" && v !== "");
  return (
    <Form method="get" action="/user-management" preventScrollReset>
      {keep.map(([k, v], i) => (
        <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
      ))}
      <input type="hidden" name="dialog" value={dialog} />
      {id && <input type="hidden" name="id" value={id} />}
      <button type="submit" className={className} aria-label={label}>
        {children}
      </button>
    </Form>
  );
}

export function RowActions({ user, search }: { user: UserRow; search: string }) {
  const navigation = useNavigation();
  const { can } = user;
  if (!can.edit && !can.block && !can.delete) return <span className="text-xs text-slate-500">No actions available</span>;
  const pendingToggle = navigation.state === "submitting" && navigation.formData?.get("userId") === user.id;
  const action = "rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium whitespace-nowrap hover:bg-slate-50";
  // Spec: Active toggles to Blocked, anything else to Active (an invited Pending user is activated).
  const toggleLabel = user.status === "Active" ? "Block" : user.status === "Blocked" ? "Unblock" : "Activate";
  return (
    <div className="flex flex-nowrap justify-end gap-1.5">
      {can.edit && (
        <OpenDialogButton search={search} dialog="edit" id={user.id} className={`${action} text-slate-700`} label={`Edit ${user.email}`}>
          Edit
        </OpenDialogButton>
      )}
      {can.block && (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="toggle-status" />
          <input type="hidden" name="userId" value={user.id} />
          <button
            type="submit"
            disabled={pendingToggle}
            className={`${action} ${user.status === "Active" ? "text-red-700" : "text-green-700"}`}
            aria-label={`${toggleLabel} ${user.email}`}
          >
            {toggleLabel}
          </button>
        </Form>
      )}
      {can.delete && (
        <OpenDialogButton
          search={search}
          dialog="delete"
          id={user.id}
          className={`${action} border-red-200 text-red-700 hover:bg-red-50`}
          label={`Delete User ${user.email}`}
        >
          Delete
        </OpenDialogButton>
      )}
    </div>
  );
}

export const USER_COLUMNS: DataTableColumn[] = [
  { label: "User" },
  { label: "Role" },
  { label: "Plan" },
  { label: "Status" },
  { label: "Created", className: "hidden md:table-cell" },
  { label: "Actions", className: "text-right" },
];
