import { Form, Link, NavLink, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { RoleName } from "db/schema";

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
  { to: "/exemption-lists", label: "Exemption Lists", icon: "⊕" },
  { to: "/purge", label: "Purge Data", icon: "⌫" },
  { to: "/history", label: "History", icon: "⟲" },
  { to: "/call-history", label: "Call History", icon: "☏" },
];
const adminMenu: NavItem[] = [
  { to: "/dnc", label: "DNC Management", icon: "⊘" },
  { to: "/user-management", label: "User Management", icon: "☺" },
];
const accountMenu: NavItem[] = [
  { to: "/transaction-history", label: "Transaction History", icon: "≣" },
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
 * From 768px up the sidebar shows labels or icons only (16rem or 3rem, the cookie's state). Below 768px it
 * is a 3rem rail of icons; its ☰ is a <details> menu with every label, so it opens without JavaScript.
 */
function labelClass(shown: boolean): string {
  return shown ? "max-md:hidden" : "hidden";
}

/** The icon stand-in (e.g. "$" for Pricing) shows exactly where the label does not. */
function iconOnlyClass(shown: boolean): string {
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
              `flex items-center gap-3 rounded-md px-2 py-2 text-sm font-medium ${isActive ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"}`
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

/** The Privacy and Terms links under the Pricing button, in the sidebar and the phone menu. */
function LegalLinks({ className = "" }: { className?: string }) {
  return (
    <div className={`flex justify-center gap-4 pt-2 text-xs text-slate-500 ${className}`}>
      <Link to="/privacy" className="hover:underline">
        Privacy
      </Link>
      <Link to="/terms" className="hover:underline">
        Terms
      </Link>
    </div>
  );
}

const NARROW_QUERY = "(max-width: 767px)";

/** The phone menu: a <details> whose panel lists every item with its label (works without JavaScript). */
/** The sidebar's Pricing link carries where the user is, so closing the dialog returns there (validated by /pricing). */
function pricingHref(here: string): string {
  return here.startsWith("/pricing") ? "/pricing" : `/pricing?${new URLSearchParams({ redirectTo: here })}`;
}

function PhoneMenu({ items, menuRef, pricing }: { items: NavItem[]; menuRef: React.RefObject<HTMLDetailsElement>; pricing: string }) {
  return (
    <details ref={menuRef} className="group md:hidden" data-testid="phone-menu">
      <summary
        aria-label="Menu"
        title="Menu"
        className="flex h-8 w-8 cursor-pointer list-none items-center justify-center rounded p-1 text-slate-600 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
      >
        <span aria-hidden className="group-open:hidden">
          ☰
        </span>
        <span aria-hidden className="hidden group-open:inline">
          ×
        </span>
      </summary>
      <div className="fixed inset-y-0 left-[3rem] z-40 flex w-[18rem] max-w-[calc(100vw-3rem)] flex-col overflow-y-auto border-r border-slate-200 bg-white p-2 shadow-xl">
        <p className="px-2 py-2 text-base font-semibold">Data Purging Tool</p>
        <nav aria-label="Menu">
          <NavList items={items} labels="" />
        </nav>
        <div className="mt-3 space-y-1 px-1">
          <Link
            to={pricing}
            className="flex w-full items-center justify-center rounded-md bg-blue-600 px-2 py-2 text-sm font-medium text-white hover:bg-blue-700"
          >
            Pricing
          </Link>
          <LegalLinks />
        </div>
      </div>
    </details>
  );
}

export function AppShell({ user, expanded, children }: { user: ShellUser; expanded: boolean; children: React.ReactNode }) {
  const fetcher = useFetcher();
  const location = useLocation();
  const pending = fetcher.formData?.get("expanded");
  const [isExpanded, setExpanded] = useState(expanded);
  const phoneMenu = useRef<HTMLDetailsElement>(null);
  const shown = pending != null ? pending === "true" : isExpanded;
  const isAdmin = user.role === "Admin" || user.role === "SuperAdmin";
  const labels = labelClass(shown);
  const redirectTo = location.pathname + location.search;
  const menuItems = isAdmin ? [...mainMenu, ...adminMenu, ...adminExtraMenu] : mainMenu;

  useEffect(() => setExpanded(expanded), [expanded]);
  // Without JavaScript every navigation is a new page with the menu closed; with it, close it by hand.
  useEffect(() => {
    if (phoneMenu.current) phoneMenu.current.open = false;
  }, [location.key]);
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      const menu = phoneMenu.current;
      if (e.key === "Escape" && menu?.open) {
        menu.open = false;
        return;
      }
      if (e.key.toLowerCase() === "b" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        if (window.matchMedia(NARROW_QUERY).matches) {
          if (menu) menu.open = !menu.open;
          return;
        }
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
      <div className="w-[3rem] shrink-0 md:w-auto">
        <aside
          data-state={shown ? "expanded" : "collapsed"}
          className={`sticky top-0 z-30 flex h-screen shrink-0 flex-col border-r border-slate-200 bg-white transition-[width] ${
            shown ? "md:w-[16rem]" : "md:w-[3rem]"
          } max-md:w-[3rem]`}
        >
          <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-2 py-3">
            <Link to="/dashboard" className={`truncate px-1 text-base font-semibold ${labels}`}>
              Data Purging Tool
            </Link>
            <PhoneMenu items={[...menuItems, ...accountMenu]} menuRef={phoneMenu} pricing={pricingHref(redirectTo)} />
            <fetcher.Form method="post" action="/resources/sidebar" className="max-md:hidden">
              <input type="hidden" name="expanded" value={String(!shown)} />
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <button type="submit" className="rounded p-1 text-slate-600 hover:bg-slate-100" aria-label="Toggle Sidebar" title="Toggle Sidebar (Ctrl+B)">
                ☰
              </button>
            </fetcher.Form>
          </div>
          <nav className="flex-1 space-y-4 overflow-y-auto px-1 py-3" aria-label="Main">
            <NavList items={menuItems} labels={labels} />
            <div>
              <p className={`px-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase ${labels}`}>Account</p>
              <NavList items={accountMenu} labels={labels} />
            </div>
            <div className="space-y-1 px-1">
              <Link
                to={pricingHref(redirectTo)}
                aria-label="Pricing"
                title="Pricing"
                className="flex w-full items-center justify-center rounded-md bg-blue-600 px-2 py-2 text-sm font-medium text-white hover:bg-blue-700"
              >
                <span className={labels}>Pricing</span>
                <span aria-hidden className={iconOnlyClass(shown)}>
                  $
                </span>
              </Link>
              <LegalLinks className={labels} />
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
                <span aria-hidden className={iconOnlyClass(shown)}>
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
