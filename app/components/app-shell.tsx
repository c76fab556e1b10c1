import { Form, Link, NavLink, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { RoleName } from "../../db/schema";

export interface ShellUser {
  firstName: string;
  lastName: string;
  email: string;
  role: RoleName;
}

interface NavItem {
  to: string;
  label: string;
  icon: string;
}

const mainMenu: NavItem[] = [
  { to: "/dashboard", label: "Dashboard", icon: "▦" },
  { to: "/containers", label: "Containers", icon: "▤" },
  { to: "/purge", label: "Purge Data", icon: "⌫" },
  { to: "/history", label: "History", icon: "⟲" },
];
const adminMenu: NavItem[] = [
  { to: "/dnc", label: "DNC Management", icon: "⛔" },
  { to: "/user-management", label: "User Management", icon: "☺" },
];
const accountMenu: NavItem[] = [
  { to: "/transaction-history", label: "Transaction History", icon: "$" },
  { to: "/integrations", label: "Integrations", icon: "⇄" },
];

/** Extra admin links registered by later areas (e.g. payments review). */
export const adminExtraMenu: NavItem[] = [{ to: "/admin/payments", label: "Payments", icon: "✓" }];

function roleLabel(role: RoleName): string {
  if (role === "SuperAdmin") return "Super Admin";
  if (role === "Admin") return "Admin";
  return "User";
}

function initials(u: ShellUser): string {
  const s = `${u.firstName.charAt(0)}${u.lastName.charAt(0)}`.toUpperCase();
  return s || u.email.charAt(0).toUpperCase();
}

function NavList({ items, collapsed }: { items: NavItem[]; collapsed: boolean }) {
  return (
    <ul className="space-y-1">
      {items.map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            title={item.label}
            className={({ isActive }) =>
              `flex items-center gap-3 rounded-md px-2 py-2 text-sm font-medium ${
                isActive ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"
              }`
            }
          >
            <span aria-hidden className="w-5 text-center">
              {item.icon}
            </span>
            {!collapsed && <span>{item.label}</span>}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

export function AppShell({ user, expanded, children }: { user: ShellUser; expanded: boolean; children: React.ReactNode }) {
  const fetcher = useFetcher();
  const location = useLocation();
  const pending = fetcher.formData?.get("expanded");
  const [isExpanded, setExpanded] = useState(expanded);
  const shown = pending != null ? pending === "true" : isExpanded;
  const isAdmin = user.role === "Admin" || user.role === "SuperAdmin";
  const collapsed = !shown;
  const redirectTo = location.pathname + location.search;

  useEffect(() => setExpanded(expanded), [expanded]);
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.key.toLowerCase() === "b" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        const next = !shown;
        setExpanded(next);
        fetcher.submit({ expanded: String(next), redirectTo }, { method: "post", action: "/resources/sidebar" });
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [shown, fetcher, redirectTo]);

  return (
    <div className="flex min-h-screen">
      <aside
        data-state={shown ? "expanded" : "collapsed"}
        className={`sticky top-0 flex h-screen shrink-0 flex-col border-r border-slate-200 bg-white transition-[width] ${
          shown ? "w-[18rem] md:w-[16rem]" : "w-[3rem]"
        }`}
      >
        <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-2 py-3">
          {!collapsed && (
            <Link to="/dashboard" className="truncate px-1 text-base font-semibold">
              Data Purging Tool
            </Link>
          )}
          <fetcher.Form method="post" action="/resources/sidebar">
            <input type="hidden" name="expanded" value={String(!shown)} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <button
              type="submit"
              className="rounded p-1 text-slate-600 hover:bg-slate-100"
              aria-label="Toggle Sidebar"
              title="Toggle Sidebar (Ctrl+B)"
            >
              ☰
            </button>
          </fetcher.Form>
        </div>
        <nav className="flex-1 space-y-4 overflow-y-auto px-1 py-3" aria-label="Main">
          <NavList items={isAdmin ? [...mainMenu, ...adminMenu, ...adminExtraMenu] : mainMenu} collapsed={collapsed} />
          <div>
            {!collapsed && <p className="px-2 pb-1 text-xs font-semibold tracking-wide text-slate-400 uppercase">Account</p>}
            <NavList items={accountMenu} collapsed={collapsed} />
          </div>
          <div className="space-y-1 px-1">
            <Link
              to="/pricing"
              className="flex w-full items-center justify-center rounded-md bg-blue-600 px-2 py-2 text-sm font-medium text-white hover:bg-blue-700"
            >
              {collapsed ? "$" : "Pricing"}
            </Link>
            {!collapsed && (
              <div className="flex justify-center gap-4 pt-2 text-xs text-slate-500">
                <Link to="/privacy" className="hover:underline">
                  Privacy
                </Link>
                <Link to="/terms" className="hover:underline">
                  Terms
                </Link>
              </div>
            )}
          </div>
        </nav>
        <div className="border-t border-slate-200 p-2">
          <div className="flex items-center gap-2">
            <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-slate-800 text-xs font-semibold text-white">
              {initials(user)}
            </span>
            {!collapsed && (
              <div className="min-w-0 flex-1 text-xs">
                <p className="truncate font-semibold text-slate-900">
                  {user.firstName} {user.lastName}
                </p>
                <p className="truncate text-slate-500">{user.email}</p>
                <p className="text-slate-500" data-testid="role-label">
                  {roleLabel(user.role)}
                </p>
              </div>
            )}
          </div>
          <Form method="post" action="/logout" className="mt-2">
            <button type="submit" className="w-full rounded-md border border-slate-200 px-2 py-1.5 text-sm hover:bg-slate-100" title="Logout">
              {collapsed ? "⎋" : "Logout"}
            </button>
          </Form>
        </div>
      </aside>
      <main className="min-w-0 flex-1 p-4 md:p-8">{children}</main>
    </div>
  );
}
