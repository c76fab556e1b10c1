import type { RoleName, UserStatus } from "../../../db/schema";
import { ROLE_LABELS } from "~/utils/user-permissions";

/** Spec: Admin red, SuperAdmin purple, NormalUser blue, UnlimitedUser green. */
const roleStyles: Record<RoleName, string> = {
  Admin: "bg-red-100 text-red-800 ring-red-200",
  SuperAdmin: "bg-purple-100 text-purple-800 ring-purple-200",
  NormalUser: "bg-blue-100 text-blue-800 ring-blue-200",
  UnlimitedUser: "bg-green-100 text-green-800 ring-green-200",
};

const statusStyles: Record<string, string> = {
  Active: "bg-green-100 text-green-800 ring-green-200",
  Blocked: "bg-red-100 text-red-800 ring-red-200",
  Pending: "bg-yellow-100 text-yellow-800 ring-yellow-200",
};

const badge = "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset whitespace-nowrap";

export function RoleBadge({ role }: { role: RoleName }) {
  return (
    <span className={`${badge} ${roleStyles[role]}`} data-role={role}>
      {ROLE_LABELS[role]}
    </span>
  );
}

export function StatusBadge({ status }: { status: UserStatus }) {
  return (
    <span className={`${badge} ${statusStyles[status] ?? "bg-slate-100 text-slate-700 ring-slate-200"}`} data-status={status}>
      {status}
    </span>
  );
}

export function Avatar({ initials }: { initials: string }) {
  return (
    <span aria-hidden className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-slate-200 text-xs font-semibold text-slate-700">
      {initials}
    </span>
  );
}
