import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { z } from "zod";
import type { RoleName } from "db/schema";
import { PageHeader } from "~/components/ui/page-header";
import { buttonClass } from "~/components/ui/form";
import { RouteErrorBoundary } from "~/components/route-error-boundary";
import { Avatar, RoleBadge } from "~/routes/_app.user-management/badges";
import { DataTable } from "~/components/ui/data-table";
import { StatusBadge } from "~/components/ui/status-badge";
import { Pagination } from "~/components/ui/pagination";
import { DeleteUserDialog, UserDialog } from "~/routes/_app.user-management/dialogs";
import { NO_PLAN, STATUS_FILTERS, USERS_PAGE_SIZE } from "~/models/user-list";
import { DUPLICATE_EMAIL, editUserFormSchema, normalizeUserForm, userFormSchema } from "~/routes/_app.user-management/user-form-schema";
import { ADMIN_ROLES, requireRole, type AccessDeniedData, type SessionUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { replyOnError } from "~/utils/action-reply.server";
import { flashToast, type Toast } from "~/utils/session.server";
import { canBlockUser, canChangeRole, canDeleteUser, canEditUser, grantableRoles } from "~/models/user-permissions";
import { getManagedUser, listUsers, userStats, type ManagedUser } from "~/models/user-management.server";
import { deleteUser, editUser, inviteUser, toggleUserStatus } from "~/accounts/manage-users.server";
import { sendInvitation } from "~/accounts/mail.server";
import { planCatalogue, planLookup } from "~/models/user-management-plans.server";
import { DateOnly } from "~/components/ui/date-time";
import { Filters, hrefWith, OpenDialogButton, ResendInvitation, RowActions, USER_COLUMNS } from "./table";

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
  const intent = String(formData.get("intent") ?? "");
  const handler = USER_INTENTS[intent];
  if (!handler) return data({ error: "Unknown action." }, { status: 400 });
  // Guards and answers thrown on purpose (403, redirects) pass through; anything else becomes the spec's toast.
  return replyOnError(async () => handler({ request, actor, formData, db: await getDb() }), {
    failed: () =>
      redirectWithToast(request, backToList(request), {
        kind: "error",
        title: FAILURE_TITLES[intent] ?? "Request failed",
        description: "Something went wrong. Please try again.",
      }),
  });
}

interface UserActionContext {
  request: Request;
  actor: SessionUser;
  formData: FormData;
  db: Awaited<ReturnType<typeof getDb>>;
}

const USER_INTENTS: Record<string, (ctx: UserActionContext) => Promise<Response | ReturnType<typeof data>>> = {
  create: createUserIntent,
  update: updateUserIntent,
  "toggle-status": (ctx) => withTarget(ctx, "toggle-status", toggleStatusIntent),
  delete: (ctx) => {
    // Refused before the target is looked up: only SuperAdmin may delete, whoever is named.
    if (ctx.actor.role !== "SuperAdmin") forbidden(ctx.actor, "Only SuperAdmin can delete users.");
    return withTarget(ctx, "delete", deleteUserIntent);
  },
  "resend-invitation": (ctx) => withTarget(ctx, "resend-invitation", resendInvitation),
};

async function createUserIntent({ request, actor, formData, db }: UserActionContext) {
  const submission = parseWithZod(formData, { schema: userFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const outcome = await inviteUser(db, actor, normalizeUserForm(submission.value), DUPLICATE_EMAIL);
  if ("refused" in outcome) forbidden(actor, outcome.refused);
  if ("field" in outcome)
    return data(submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] } }), { status: outcome.field === "email" ? 409 : 400 });
  const to = backToList(request, { clearFilters: true });
  if (!outcome.invitationSent) {
    return redirectWithToast(request, to, {
      kind: "error",
      title: "Failed to send invitation",
      description: `The user was created, but the invitation e-mail to ${outcome.user.email} could not be sent. Use Resend Invitation to try again.`,
    });
  }
  return redirectWithToast(request, to, {
    kind: "success",
    title: "User created successfully",
    description: `Invitation sent! User will receive setup email at ${outcome.user.email}`,
  });
}

async function updateUserIntent({ request, actor, formData, db }: UserActionContext) {
  const submission = parseWithZod(formData, { schema: editUserFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const v = normalizeUserForm(submission.value);
  const target = await getManagedUser(db, v.userId);
  if (!target) return redirectWithToast(request, backToList(request), { kind: "error", title: "Failed to update user", description: "User not found." });
  const outcome = await editUser(db, actor, target, v, DUPLICATE_EMAIL);
  if ("refused" in outcome) forbidden(actor, outcome.refused);
  if ("field" in outcome)
    return data(submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] } }), { status: outcome.field === "email" ? 409 : 400 });
  return redirectWithToast(request, backToList(request), {
    kind: "success",
    title: "User updated successfully!",
    ...(outcome.roleChanged ? { description: "User role updated successfully" } : {}),
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

async function toggleStatusIntent({ request, actor, db }: UserActionContext, target: ManagedUser) {
  const outcome = await toggleUserStatus(db, actor, target);
  if ("refused" in outcome) forbidden(actor, outcome.refused);
  return redirectWithToast(request, backToList(request), {
    kind: "success",
    title: outcome.status === "Blocked" ? "User blocked successfully!" : "User activated successfully!",
  });
}

async function deleteUserIntent({ request, actor, db }: UserActionContext, target: ManagedUser) {
  const outcome = await deleteUser(db, actor, target);
  if ("refused" in outcome) forbidden(actor, outcome.refused);
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

export default function UserManagement() {
  const d = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const location = useLocation();
  const navigation = useNavigation();
  const loading =
    navigation.state === "loading" &&
    navigation.location?.pathname === "/user-management" &&
    navigation.location.search !== location.search &&
    !navigation.formData;
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
                <td className="hidden px-3 py-3 whitespace-nowrap text-slate-600 md:table-cell">
                  <DateOnly value={u.created} />
                </td>
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

      {d.dialog?.kind === "create" && <UserDialog mode="create" closeHref={closeHref} lastResult={formResult} roles={d.grantable} plans={d.plans} />}
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
