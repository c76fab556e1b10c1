import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { z } from "zod";
import type { RoleName } from "../../../db/schema";
import { PageHeader } from "~/components/ui/page-header";
import { buttonClass, inputClass, secondaryButtonClass } from "~/components/ui/form";
import { RouteErrorBoundary } from "~/components/route-error-boundary";
import { Avatar, RoleBadge } from "~/routes/_app.user-management/badges";
import { DataTable, type DataTableColumn } from "~/components/ui/data-table";
import { StatusBadge } from "~/components/ui/status-badge";
import { Pagination } from "~/components/ui/pagination";
import { DeleteUserDialog, UserDialog } from "~/routes/_app.user-management/dialogs";
import { NO_PLAN, STATUS_FILTERS, USERS_PAGE_SIZE } from "~/utils/user-list";
import { DUPLICATE_EMAIL, editUserFormSchema, normalizeUserForm, userFormSchema } from "~/routes/_app.user-management/user-form-schema";
import { ADMIN_ROLES, requireRole, type AccessDeniedData, type SessionUser } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { endUserSessions, flashToast, type Toast } from "~/utils/session.server";
import {
  canBlockUser,
  canChangeRole,
  canDeleteUser,
  canEditUser,
  grantableRoles,
  toggledStatus,
} from "~/utils/user-permissions";
import {
  createInvitedUser,
  getManagedUser,
  isDuplicateEmailError,
  listUsers,
  liveEmailTaken,
  setUserStatus,
  softDeleteUser,
  updateManagedUser,
  userStats,
  type ManagedUser,
} from "~/models/user-management.server";
import { sendInvitation } from "~/accounts/mail.server";
import { planCatalogue, planLookup } from "~/models/user-management-plans.server";

import { DateOnly } from "~/components/ui/date-time";

export const meta: MetaFunction = () => [{ title: "User Management · Data Purging Tool" }];

export const ACCESS_DENIED_MESSAGE = "You need Admin or SuperAdmin role to access User Management.";

const filtersSchema = z.object({
  search: z
    .string()
    .transform((v) => v.replaceAll("\u0000", "").trim())
    .pipe(z.string().max(200))
    .catch(""),
  status: z.enum(STATUS_FILTERS).or(z.literal("")).catch(""),
  plan: z
    .string()
    .transform((v) => v.replaceAll("\u0000", "").trim())
    .pipe(z.string().max(100))
    .catch(""),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});

function readFilters(params: URLSearchParams) {
  return filtersSchema.parse({
    search: params.get("search") ?? "",
    status: params.get("status") ?? "",
    plan: params.get("plan") ?? "",
    page: params.get("page") ?? "1",
  });
}

function fullName(u: { firstName: string; lastName: string }): string {
  return `${u.firstName} ${u.lastName}`.trim();
}

function initialsOf(u: { firstName: string; lastName: string; email: string }): string {
  const s = `${u.firstName.trim().charAt(0)}${u.lastName.trim().charAt(0)}`.toUpperCase();
  return s || u.email.charAt(0).toUpperCase() || "?";
}

function forbidden(actor: SessionUser, message: string): never {
  throw data<AccessDeniedData>({ accessDenied: true, message, roles: [actor.role] }, { status: 403 });
}

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, ADMIN_ROLES, ACCESS_DENIED_MESSAGE);
  const url = new URL(request.url);
  const filters = readFilters(url.searchParams);
  const db = await getDb();
  const lookup = planLookup();
  const [list, stats, plans] = await Promise.all([listUsers(db, filters, lookup), userStats(db), planCatalogue(db)]);

  const dialogParam = url.searchParams.get("dialog");
  let dialog:
    | null
    | { kind: "create" }
    | { kind: "edit"; user: ManagedUser & { plan: string }; canChangeRole: boolean; canChangeStatus: boolean; roles: RoleName[] }
    | { kind: "delete"; user: { id: string; name: string; email: string } } = null;
  if (dialogParam === "create") {
    dialog = { kind: "create" };
  } else if (dialogParam === "edit" || dialogParam === "delete") {
    const target = await getManagedUser(db, url.searchParams.get("id") ?? "");
    if (!target) throw data("User not found", { status: 404 });
    if (dialogParam === "edit") {
      if (!canEditUser(viewer, target)) forbidden(viewer, "You don't have permission to edit this user.");
      const planId = (await lookup.activePlanIds(db, [target.id])).get(target.id) ?? NO_PLAN;
      const roleChange = canChangeRole(viewer, target);
      const roles = grantableRoles(viewer);
      dialog = {
        kind: "edit",
        user: { ...target, plan: planId },
        canChangeRole: roleChange,
        canChangeStatus: canBlockUser(viewer, target),
        roles: roles.includes(target.role) ? roles : [target.role, ...roles],
      };
    } else {
      if (!canDeleteUser(viewer, target)) forbidden(viewer, "Only SuperAdmin can delete other users.");
      dialog = { kind: "delete", user: { id: target.id, name: fullName(target) || "Unknown User", email: target.email } };
    }
  }

  return {
    viewer: { id: viewer.id, role: viewer.role },
    filters,
    users: list.users.map((u) => ({
      id: u.id,
      name: fullName(u) || "Unknown User",
      initials: initialsOf(u),
      email: u.email,
      company: u.company,
      role: u.role,
      status: u.status,
      emailConfirmed: u.emailConfirmed,
      awaitingSetup: u.awaitingSetup,
      plan: u.plan,
      created: u.createdAt instanceof Date ? u.createdAt.toISOString() : String(u.createdAt),
      can: {
        edit: canEditUser(viewer, u),
        block: canBlockUser(viewer, u),
        delete: canDeleteUser(viewer, u),
        resend: u.awaitingSetup && canEditUser(viewer, u),
      },
    })),
    total: list.total,
    page: list.page,
    pageCount: list.pageCount,
    stats,
    plans: plans.map((p) => ({ id: p.id, name: p.name })),
    grantable: grantableRoles(viewer),
    dialog,
  };
}

/** The list URL to return to after an action: same filters and page, no dialog. */
function backToList(request: Request, opts: { firstPage?: boolean; clearFilters?: boolean } = {}): string {
  const url = new URL(request.url);
  if (opts.clearFilters) return url.pathname;
  for (const k of ["dialog", "id", "index", "_data"]) url.searchParams.delete(k);
  if (opts.firstPage) url.searchParams.delete("page");
  const qs = url.searchParams.toString();
  return qs ? `${url.pathname}?${qs}` : url.pathname;
}

async function redirectWithToast(request: Request, to: string, toast: Toast) {
  return redirect(to, { headers: { "Set-Cookie": await flashToast(request, toast) } });
}

const targetSchema = z.object({ userId: z.string().uuid() });

/** Spec error toasts per intent, used when something unexpected fails (the error is logged). */
const FAILURE_TITLES: Record<string, string> = {
  create: "Failed to send invitation",
  update: "Failed to update user",
  "toggle-status": "Failed to update user status",
  delete: "Failed to delete user",
  "resend-invitation": "Failed to send invitation",
};

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, ADMIN_ROLES, ACCESS_DENIED_MESSAGE);
  const formData = await request.formData();
  try {
    return await handleAction(request, actor, formData);
  } catch (e) {
    // Guards and answers thrown on purpose (403, redirects) pass through; anything else becomes the spec's toast.
    if (e instanceof Response || (e && typeof e === "object" && "type" in e && e.type === "DataWithResponseInit")) throw e;
    console.error(e);
    return redirectWithToast(request, backToList(request), {
      kind: "error",
      title: FAILURE_TITLES[String(formData.get("intent"))] ?? "Request failed",
      description: "Something went wrong. Please try again.",
    });
  }
}

interface UserActionContext {
  request: Request;
  actor: SessionUser;
  formData: FormData;
  db: Awaited<ReturnType<typeof getDb>>;
}

async function handleAction(request: Request, actor: SessionUser, formData: FormData) {
  const intent = String(formData.get("intent") ?? "");
  const handler = USER_INTENTS[intent];
  if (!handler) return data({ error: "Unknown action." }, { status: 400 });
  return handler({ request, actor, formData, db: await getDb() });
}

const USER_INTENTS: Record<string, (ctx: UserActionContext) => Promise<Response | ReturnType<typeof data>>> = {
  create: createUser,
  update: updateUser,
  "toggle-status": (ctx) => withTarget(ctx, "toggle-status", toggleStatus),
  delete: (ctx) => {
    // Refused before the target is looked up: only SuperAdmin may delete, whoever is named.
    if (ctx.actor.role !== "SuperAdmin") forbidden(ctx.actor, "Only SuperAdmin can delete users.");
    return withTarget(ctx, "delete", deleteUser);
  },
  "resend-invitation": (ctx) => withTarget(ctx, "resend-invitation", resendInvitation),
};

async function createUser({ request, actor, formData, db }: UserActionContext) {
  const submission = parseWithZod(formData, { schema: userFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const v = normalizeUserForm(submission.value);
  if (!grantableRoles(actor).includes(v.role)) forbidden(actor, "Only SuperAdmin can grant the Admin or SuperAdmin role.");
  const plans = await planCatalogue(db);
  if (v.plan !== NO_PLAN && !plans.some((p) => p.id === v.plan)) {
    return data(submission.reply({ fieldErrors: { plan: ["Choose a plan from the list"] } }), { status: 400 });
  }
  let created: ManagedUser | null = null;
  try {
    created = await db.transaction().execute(async (trx) => {
      if (await liveEmailTaken(trx, v.email)) return null;
      const user = await createInvitedUser(trx, actor.id, v);
      if (v.plan !== NO_PLAN) await planLookup().grant(trx, { userId: user.id, planId: v.plan, actorId: actor.id });
      return user;
    });
  } catch (e) {
    if (!isDuplicateEmailError(e)) throw e;
  }
  if (!created) return data(submission.reply({ fieldErrors: { email: [DUPLICATE_EMAIL] } }), { status: 409 });
  const sent = await sendInvitation(db, { user: created, inviter: actor });
  const to = backToList(request, { clearFilters: true });
  if (!sent.ok) {
    return redirectWithToast(request, to, {
      kind: "error",
      title: "Failed to send invitation",
      description: `The user was created, but the invitation e-mail to ${created.email} could not be sent. Use Resend Invitation to try again.`,
    });
  }
  return redirectWithToast(request, to, {
    kind: "success",
    title: "User created successfully",
    description: `Invitation sent! User will receive setup email at ${created.email}`,
  });
}

async function updateUser({ request, actor, formData, db }: UserActionContext) {
  const submission = parseWithZod(formData, { schema: editUserFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const v = normalizeUserForm(submission.value);
  const target = await getManagedUser(db, v.userId);
  if (!target) return redirectWithToast(request, backToList(request), { kind: "error", title: "Failed to update user", description: "User not found." });
  if (!canEditUser(actor, target)) forbidden(actor, "You don't have permission to edit this user.");
  if (v.role !== target.role) {
    if (!canChangeRole(actor, target)) forbidden(actor, "You cannot change your own role.");
    if (!grantableRoles(actor).includes(v.role)) forbidden(actor, "Only SuperAdmin can grant the Admin or SuperAdmin role.");
  }
  if (v.status !== target.status) {
    if (!canBlockUser(actor, target)) forbidden(actor, "You cannot change the status of your own account.");
    if (v.status === "Pending" || v.status === "Draft") {
      return data(submission.reply({ fieldErrors: { status: ["Only Active or Blocked can be chosen for this user"] } }), { status: 400 });
    }
  }
  const lookup = planLookup();
  const currentPlan = (await lookup.activePlanIds(db, [target.id])).get(target.id) ?? NO_PLAN;
  if (v.plan !== currentPlan) {
    const plans = await planCatalogue(db);
    if (v.plan !== NO_PLAN && !plans.some((p) => p.id === v.plan)) {
      return data(submission.reply({ fieldErrors: { plan: ["Choose a plan from the list"] } }), { status: 400 });
    }
    if (v.plan === NO_PLAN) {
      return data(submission.reply({ fieldErrors: { plan: ["An active plan cannot be removed here; it ends with its period"] } }), { status: 400 });
    }
  }
  let result: { statusChanged: boolean; roleChanged: boolean } | null = null;
  try {
    result = await db.transaction().execute(async (trx) => {
      if (await liveEmailTaken(trx, v.email, target.id)) return null;
      const r = await updateManagedUser(trx, actor.id, target, v);
      if (v.plan !== currentPlan && v.plan !== NO_PLAN) await lookup.grant(trx, { userId: target.id, planId: v.plan, actorId: actor.id });
      return r;
    });
  } catch (e) {
    if (!isDuplicateEmailError(e)) throw e;
  }
  if (!result) return data(submission.reply({ fieldErrors: { email: [DUPLICATE_EMAIL] } }), { status: 409 });
  if (result.statusChanged && v.status === "Blocked") await endUserSessions(target.id);
  return redirectWithToast(request, backToList(request), {
    kind: "success",
    title: "User updated successfully!",
    ...(result.roleChanged ? { description: "User role updated successfully" } : {}),
  });
}

/** The user a row action names (from the form), or the failure toast when there is none. */
async function withTarget(
  ctx: UserActionContext,
  intent: "toggle-status" | "delete" | "resend-invitation",
  act: (ctx: UserActionContext, target: ManagedUser, failTitle: string) => Promise<Response>,
) {
  const { request, formData, db } = ctx;
  const failTitle = FAILURE_TITLES[intent];
  const parsed = targetSchema.safeParse({ userId: formData.get("userId") });
  const target = parsed.success ? await getManagedUser(db, parsed.data.userId) : undefined;
  if (!target) return redirectWithToast(request, backToList(request), { kind: "error", title: failTitle, description: "User not found." });
  return act(ctx, target, failTitle);
}

async function toggleStatus({ request, actor, db }: UserActionContext, target: ManagedUser) {
  if (!canBlockUser(actor, target)) {
    forbidden(actor, actor.id === target.id ? "You cannot block your own account." : "You don't have permission to change this user's status.");
  }
  const next = toggledStatus(target.status);
  await db.transaction().execute((trx) => setUserStatus(trx, actor.id, target, next));
  if (next === "Blocked") await endUserSessions(target.id);
  return redirectWithToast(request, backToList(request), {
    kind: "success",
    title: next === "Blocked" ? "User blocked successfully!" : "User activated successfully!",
  });
}

async function deleteUser({ request, actor, db }: UserActionContext, target: ManagedUser) {
  if (!canDeleteUser(actor, target)) forbidden(actor, "You cannot delete your own account.");
  await db.transaction().execute((trx) => softDeleteUser(trx, actor.id, target));
  await endUserSessions(target.id);
  return redirectWithToast(request, backToList(request), { kind: "success", title: "User deleted successfully!" });
}

async function resendInvitation({ request, actor, db }: UserActionContext, target: ManagedUser, failTitle: string) {
  if (!canEditUser(actor, target)) forbidden(actor, "You don't have permission to invite this user.");
  if (!target.awaitingSetup) {
    return redirectWithToast(request, backToList(request), {
      kind: "error",
      title: failTitle,
      description: "This user has already set up their account.",
    });
  }
  const sent = await sendInvitation(db, { user: target, inviter: actor });
  if (!sent.ok) {
    return redirectWithToast(request, backToList(request), { kind: "error", title: failTitle, description: "The invitation e-mail could not be sent." });
  }
  return redirectWithToast(request, backToList(request), {
    kind: "success",
    title: "Invitation sent successfully",
    description: `Invitation sent! User will receive setup email at ${target.email}`,
  });
}

export { RouteErrorBoundary as ErrorBoundary };

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function hrefWith(search: string, changes: Record<string, string | null>): string {
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
function FilterSelect({ id, name, label, defaultValue, children }: { id: string; name: string; label: string; defaultValue: string; children: React.ReactNode }) {
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

function Filters({ filters, plans }: { filters: LoaderData["filters"]; plans: LoaderData["plans"] }) {
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
function ResendInvitation({ user }: { user: LoaderData["users"][number] }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "resend-invitation" && navigation.formData?.get("userId") === user.id;
  return (
    <Form method="post" preventScrollReset className="mt-1">
      <input type="hidden" name="intent" value="resend-invitation" />
      <input type="hidden" name="userId" value={user.id} />
      <button type="submit" disabled={busy} className="text-xs whitespace-nowrap text-blue-700 hover:underline" aria-label={`Resend Invitation to ${user.email}`}>
        {busy ? "Sending..." : "Resend Invitation"}
      </button>
    </Form>
  );
}

/**
 * Opens a dialog with a GET form (the list's filters and page ride along as hidden fields): a real button that
 * works with or without JavaScript, and the dialog is in the URL.
 */
function OpenDialogButton({
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

function RowActions({ user, search }: { user: LoaderData["users"][number]; search: string }) {
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

const USER_COLUMNS: DataTableColumn[] = [
  { label: "User" },
  { label: "Role" },
  { label: "Plan" },
  { label: "Status" },
  { label: "Created", className: "hidden md:table-cell" },
  { label: "Actions", className: "text-right" },
];

export default function UserManagement() {
  const d = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const location = useLocation();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/user-management" && navigation.location.search !== location.search && !navigation.formData;
  const closeHref = hrefWith(location.search, { dialog: null, id: null });
  const formResult = lastResult && "status" in lastResult ? lastResult : null;

  return (
    <div>
      <PageHeader
        title="User Management"
        subtitle="Manage application users and their subscriptions"
        actions={
          <OpenDialogButton search={location.search} dialog="create" className={buttonClass}>
            Add New User
          </OpenDialogButton>
        }
      />

      <section className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
        <Filters filters={d.filters} plans={d.plans} />
        {loading ? (
          <p className="p-10 text-center text-sm text-slate-500" role="status">
            Loading users...
          </p>
        ) : d.users.length === 0 ? (
          <div className="p-12 text-center">
            <p className="text-base font-medium text-slate-900">No users found</p>
            <p className="mt-1 text-sm text-slate-500">Try adjusting your search or filter criteria.</p>
          </div>
        ) : (
          <DataTable columns={USER_COLUMNS} headerCellClass="px-3 py-3">
            {d.users.map((u) => (
              <tr key={u.id} data-testid="user-row" data-email={u.email} className="hover:bg-slate-50">
                <td className="px-3 py-3">
                  <div className="flex items-center gap-3">
                    <Avatar initials={u.initials} />
                    <div className="max-w-[14rem] min-w-0">
                      <p className="truncate font-medium text-slate-900">{u.name}</p>
                      <p className="truncate text-slate-600" title={u.email}>
                        {u.email}
                      </p>
                      {u.company && <p className="truncate text-xs text-slate-500">{u.company}</p>}
                      {!u.emailConfirmed && <p className="text-xs text-amber-700">E-mail not confirmed</p>}
                    </div>
                  </div>
                </td>
                <td className="px-3 py-3">
                  <RoleBadge role={u.role} />
                </td>
                <td className="px-3 py-3 whitespace-nowrap text-slate-700">{u.plan ?? "No Plan"}</td>
                <td className="px-3 py-3">
                  <StatusBadge status={u.status} shape="inset" data-status={u.status} />
                  {u.can.resend && <ResendInvitation user={u} />}
                </td>
                <td className="hidden px-3 py-3 whitespace-nowrap text-slate-600 md:table-cell"><DateOnly value={u.created} /></td>
                <td className="px-3 py-3 text-right">
                  <RowActions user={u} search={location.search} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        <Pagination
          page={d.page}
          pageCount={d.pageCount}
          total={d.total}
          pageSize={USERS_PAGE_SIZE}
          noun="users"
          href={(p) => hrefWith(location.search, { page: p === 1 ? null : String(p), dialog: null, id: null })}
        />
      </section>

      <dl className="mt-6 grid grid-cols-2 gap-4 md:grid-cols-4" aria-label="User statistics">
        {[
          ["Total Users", d.stats.totalUsers],
          ["Active Users", d.stats.activeUsers],
          ["Normal Users", d.stats.normalUsers],
          ["Unlimited Users", d.stats.unlimitedUsers],
        ].map(([label, value]) => (
          <div key={label} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-500">{label}</dt>
            <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid={`stat-${String(label).toLowerCase().replace(/ /g, "-")}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>

      {d.dialog?.kind === "create" && (
        <UserDialog mode="create" closeHref={closeHref} lastResult={formResult} roles={d.grantable} plans={d.plans} />
      )}
      {d.dialog?.kind === "edit" && (
        <UserDialog
          mode="edit"
          user={{ ...d.dialog.user }}
          closeHref={closeHref}
          lastResult={formResult}
          roles={d.dialog.roles}
          plans={d.plans}
          canChangeRole={d.dialog.canChangeRole}
          canChangeStatus={d.dialog.canChangeStatus}
        />
      )}
      {d.dialog?.kind === "delete" && <DeleteUserDialog user={d.dialog.user} closeHref={closeHref} />}
    </div>
  );
}
