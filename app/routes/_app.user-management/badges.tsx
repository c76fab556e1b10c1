import type { RoleName } from "db/schema";
import { ROLE_LABELS } from "~/models/user-permissions";
import { Badge } from "~/components/ui/status-badge";

/** Spec: Admin red, SuperAdmin purple, NormalUser blue, UnlimitedUser green. */
const roleStyles: Record<RoleName, string> = {
  Admin: "bg-red-100 text-red-800 ring-red-200",
  SuperAdmin: "bg-purple-100 text-purple-800 ring-purple-200",
  NormalUser: "bg-blue-100 text-blue-800 ring-blue-200",
  UnlimitedUser: "bg-green-100 text-green-800 ring-green-200",
};

export function RoleBadge({ role }: { role: RoleName }) {
  return (
    <Badge colour={roleStyles[role]} shape="inset" data-role={role}>
      {ROLE_LABELS[role]}
    </Badge>
  );
}

export function Avatar({ initials }: { initials: string }) {
  return (
    <span aria-hidden className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-slate-200 text-xs font-semibold text-slate-700">
      {initials}
    </span>
  );
}
