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
  { to: "/dnc", label: "DNC Management", icon: "⊘" },
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

/**
 * Which screen sizes show the sidebar's labels. From 768px up the cookie state decides (16rem or 3rem);
 * below 768px the sidebar is a 3rem rail that opens as an 18rem overlay (client state, closed by default),
 * so it never squeezes the page on a phone.
 */
function labelClass(shown: boolean, mobileOpen: boolean): string {
  if (mobileOpen) return shown ? "" : "md:hidden";
  return shown ? "max-md:hidden" : "hidden";
}

/** The icon stand-in (e.g. "$" for Pricing) shows exactly where the label does not. */
function iconOnlyClass(shown: boolean, mobileOpen: boolean): string {
  if (mobileOpen) return shown ? "hidden" : "max-md:hidden";
  return shown ? "md:hidden" : "";
}

function NavList({ items, labels }: { items: NavItem[]; labels: string }) {
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
            <span className={labels}>{item.label}</span>
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

const NARROW_QUERY = "(max-width: 767px)";

function isNarrow(): boolean {
  return typeof window !== "undefined" && window.matchMedia(NARROW_QUERY).matches;
}

export function AppShell({ user, expanded, children }: { user: ShellUser; expanded: boolean; children: React.ReactNode }) {
  const fetcher = useFetcher();
  const location = useLocation();
  const pending = fetcher.formData?.get("expanded");
  const [isExpanded, setExpanded] = useState(expanded);
  // Below 768px: the overlay, closed on every page load and navigation (the cookie keeps the desktop state).
  const [mobileOpen, setMobileOpen] = useState(false);
  const shown = pending != null ? pending === "true" : isExpanded;
  const isAdmin = user.role === "Admin" || user.role === "SuperAdmin";
  const labels = labelClass(shown, mobileOpen);
  const redirectTo = location.pathname + location.search;

  useEffect(() => setExpanded(expanded), [expanded]);
  useEffect(() => setMobileOpen(false), [location.key]);
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.key === "Escape" && mobileOpen) {
        setMobileOpen(false);
        return;
      }
      if (e.key.toLowerCase() === "b" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        if (isNarrow()) {
          setMobileOpen((open) => !open);
          return;
        }
        const next = !shown;
        setExpanded(next);
        fetcher.submit({ expanded: String(next), redirectTo }, { method: "post", action: "/resources/sidebar" });
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [shown, mobileOpen, fetcher, redirectTo]);

  return (
    <div className="flex min-h-screen">
      {mobileOpen && (
        <button
          type="button"
          aria-label="Close Sidebar"
          className="fixed inset-0 z-30 bg-slate-900/40 md:hidden"
          onClick={() => setMobileOpen(false)}
        />
      )}
      {/* Keeps the 3rem rail's place on phones while the sidebar floats over the page. */}
      <div className="w-[3rem] shrink-0 md:w-auto">
        <aside
          data-state={shown ? "expanded" : "collapsed"}
          data-mobile={mobileOpen ? "open" : "closed"}
          className={`sticky top-0 flex h-screen shrink-0 flex-col border-r border-slate-200 bg-white transition-[width] ${
            shown ? "md:w-[16rem]" : "md:w-[3rem]"
          } ${mobileOpen ? "max-md:fixed max-md:inset-y-0 max-md:left-0 max-md:z-40 max-md:w-[18rem] max-md:shadow-xl" : "max-md:w-[3rem]"}`}
        >
          <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-2 py-3">
            <Link to="/dashboard" className={`truncate px-1 text-base font-semibold ${labels}`}>
              Data Purging Tool
            </Link>
            <fetcher.Form method="post" action="/resources/sidebar">
              <input type="hidden" name="expanded" value={String(!shown)} />
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <button
                type="submit"
                className="rounded p-1 text-slate-600 hover:bg-slate-100"
                aria-label="Toggle Sidebar"
                title="Toggle Sidebar (Ctrl+B)"
                onClick={(e) => {
                  if (!isNarrow()) return;
                  e.preventDefault();
                  setMobileOpen((open) => !open);
                }}
              >
                ☰
              </button>
            </fetcher.Form>
          </div>
          <nav className="flex-1 space-y-4 overflow-y-auto px-1 py-3" aria-label="Main">
            <NavList items={isAdmin ? [...mainMenu, ...adminMenu, ...adminExtraMenu] : mainMenu} labels={labels} />
            <div>
              <p className={`px-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase ${labels}`}>Account</p>
              <NavList items={accountMenu} labels={labels} />
            </div>
            <div className="space-y-1 px-1">
              <Link
                to="/pricing"
                aria-label="Pricing"
                title="Pricing"
                className="flex w-full items-center justify-center rounded-md bg-blue-600 px-2 py-2 text-sm font-medium text-white hover:bg-blue-700"
              >
                <span className={labels}>Pricing</span>
                <span aria-hidden className={iconOnlyClass(shown, mobileOpen)}>
                  $
                </span>
              </Link>
              <div className={`flex justify-center gap-4 pt-2 text-xs text-slate-500 ${labels}`}>
                <Link to="/privacy" className="hover:underline">
                  Privacy
                </Link>
                <Link to="/terms" className="hover:underline">
                  Terms
                </Link>
              </div>
            </div>
          </nav>
          <div className="border-t border-slate-200 p-2">
            <div className="flex items-center gap-2">
              <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-slate-800 text-xs font-semibold text-white">
                {initials(user)}
              </span>
              <div className={`min-w-0 flex-1 text-xs ${labels}`}>
                <p className="truncate font-semibold text-slate-900">
                  {user.firstName} {user.lastName}
                </p>
                <p className="truncate text-slate-500">{user.email}</p>
                <p className="text-slate-500" data-testid="role-label">
                  {roleLabel(user.role)}
                </p>
              </div>
            </div>
            <Form method="post" action="/logout" className="mt-2">
              <button
                type="submit"
                aria-label="Logout"
                className="w-full rounded-md border border-slate-200 px-2 py-1.5 text-sm hover:bg-slate-100"
                title="Logout"
              >
                <span className={labels}>Logout</span>
                <span aria-hidden className={iconOnlyClass(shown, mobileOpen)}>
                  ⎋
                </span>
              </button>
            </Form>
          </div>
        </aside>
      </div>
      <main className="min-w-0 flex-1 p-4 md:p-8">{children}</main>
    </div>
  );
}
