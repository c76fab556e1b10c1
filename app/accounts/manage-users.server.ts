import type { Kysely } from "kysely";
import type { Database, UserStatus } from "db/schema";
import type { SessionUser } from "~/accounts/auth.server";
import { endUserSessions } from "~/utils/session.server";
import { canBlockUser, canChangeRole, canDeleteUser, canEditUser, grantableRoles, toggledStatus } from "~/models/user-permissions";
import { NO_PLAN } from "~/models/user-list";
import {
  createInvitedUser,
  isDuplicateEmailError,
  liveEmailTaken,
  setUserStatus,
  softDeleteUser,
  updateManagedUser,
  type ManagedUser,
  type NewUserInput,
  type ProfileInput,
} from "~/models/user-management.server";
import { planCatalogue, planLookup } from "~/models/user-management-plans.server";
import { sendInvitation } from "~/accounts/mail.server";

/**
 * User Management's use cases: the role and plan-grant rules, the user's row, its plan grant and audit rows in
 * one transaction, then the hand-off (the invitation e-mail, ending sessions). The route parses the form and
 * turns each outcome into its reply: `refused` is a 403 with that message, `field` a form error.
 */

type Db = Kysely<Database>;
export type Refused = { refused: string };
export type FieldProblem = { field: "email" | "plan" | "status"; message: string };

const DUPLICATE = Symbol("duplicate email");

async function uniqueEmail<T>(run: () => Promise<T | typeof DUPLICATE>): Promise<T | typeof DUPLICATE> {
  try {
    return await run();
  } catch (e) {
    if (isDuplicateEmailError(e)) return DUPLICATE;
    throw e;
  }
}

async function knownPlan(db: Db, plan: string): Promise<boolean> {
  const plans = await planCatalogue(db); // read even for No Plan: a catalogue that fails stops the action
  return plan === NO_PLAN || plans.some((p) => p.id === plan);
}

/** Invites a user with the chosen role, status and plan; the invitation goes out after the commit. */
export async function inviteUser(
  db: Db,
  actor: SessionUser,
  input: NewUserInput & { plan: string },
  duplicateEmail: string,
): Promise<Refused | FieldProblem | { user: ManagedUser; invitationSent: boolean }> {
  if (!grantableRoles(actor).includes(input.role)) return { refused: "Only SuperAdmin can grant the Admin or SuperAdmin role." };
  if (!(await knownPlan(db, input.plan))) return { field: "plan", message: "Choose a plan from the list" };
  const created = await uniqueEmail(() =>
    db.transaction().execute(async (trx) => {
      if (await liveEmailTaken(trx, input.email)) return DUPLICATE;
      const user = await createInvitedUser(trx, actor.id, input);
      if (input.plan !== NO_PLAN) await planLookup().grant(trx, { userId: user.id, planId: input.plan, actorId: actor.id });
      return user;
    }),
  );
  if (created === DUPLICATE) return { field: "email", message: duplicateEmail };
  const sent = await sendInvitation(db, { user: created, inviter: actor });
  return { user: created, invitationSent: sent.ok };
}

/** Edits a user: profile, role, status and a new plan (an active plan is never removed here: it ends with its period). */
export async function editUser(
  db: Db,
  actor: SessionUser,
  target: ManagedUser,
  input: ProfileInput & { role: ManagedUser["role"]; status: UserStatus; plan: string },
  duplicateEmail: string,
): Promise<Refused | FieldProblem | { roleChanged: boolean }> {
  if (!canEditUser(actor, target)) return { refused: "You don't have permission to edit this user." };
  if (input.role !== target.role) {
    if (!canChangeRole(actor, target)) return { refused: "You cannot change your own role." };
    if (!grantableRoles(actor).includes(input.role)) return { refused: "Only SuperAdmin can grant the Admin or SuperAdmin role." };
  }
  if (input.status !== target.status) {
    if (!canBlockUser(actor, target)) return { refused: "You cannot change the status of your own account." };
    if (input.status === "Pending" || input.status === "Draft") return { field: "status", message: "Only Active or Blocked can be chosen for this user" };
  }
  const lookup = planLookup();
  const currentPlan = (await lookup.activePlanIds(db, [target.id])).get(target.id) ?? NO_PLAN;
  if (input.plan !== currentPlan) {
    if (!(await knownPlan(db, input.plan))) return { field: "plan", message: "Choose a plan from the list" };
    if (input.plan === NO_PLAN) return { field: "plan", message: "An active plan cannot be removed here; it ends with its period" };
  }
  const result = await uniqueEmail(() =>
    db.transaction().execute(async (trx) => {
      if (await liveEmailTaken(trx, input.email, target.id)) return DUPLICATE;
      const r = await updateManagedUser(trx, actor.id, target, input);
      if (input.plan !== currentPlan && input.plan !== NO_PLAN) await lookup.grant(trx, { userId: target.id, planId: input.plan, actorId: actor.id });
      return r;
    }),
  );
  if (result === DUPLICATE) return { field: "email", message: duplicateEmail };
  if (result.statusChanged && input.status === "Blocked") await endUserSessions(target.id);
  return { roleChanged: result.roleChanged };
}

/** Blocks an active user (ending their sessions) or activates a blocked one. */
export async function toggleUserStatus(db: Db, actor: SessionUser, target: ManagedUser): Promise<Refused | { status: UserStatus }> {
  if (!canBlockUser(actor, target)) {
    return { refused: actor.id === target.id ? "You cannot block your own account." : "You don't have permission to change this user's status." };
  }
  const next = toggledStatus(target.status);
  await db.transaction().execute((trx) => setUserStatus(trx, actor.id, target, next));
  if (next === "Blocked") await endUserSessions(target.id);
  return { status: next };
}

/** Soft-deletes a user and ends their sessions. */
export async function deleteUser(db: Db, actor: SessionUser, target: ManagedUser): Promise<Refused | { deleted: true }> {
  if (!canDeleteUser(actor, target)) return { refused: "You cannot delete your own account." };
  await db.transaction().execute((trx) => softDeleteUser(trx, actor.id, target));
  await endUserSessions(target.id);
  return { deleted: true };
}
