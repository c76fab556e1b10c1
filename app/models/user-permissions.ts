import type { RoleName } from "db/schema";

/**
 * Who may do what to whom in User Management (shared by the server guards and the UI, which only hides
 * buttons; the server decides). See docs/decisions/030-user-management-access.md.
 */
export interface Actor {
  id: string;
  role: RoleName;
}
export interface Target {
  id: string;
  role: RoleName;
}

export const ALL_ROLES: RoleName[] = ["NormalUser", "UnlimitedUser", "Admin", "SuperAdmin"];

export const ADMIN_ROLES: RoleName[] = ["Admin", "SuperAdmin"];

export function isAdmin(role: RoleName): boolean {
  return ADMIN_ROLES.includes(role);
}

/** Roles the actor may give (on create or edit). Only SuperAdmin grants Admin or SuperAdmin. */
export function grantableRoles(actor: Actor): RoleName[] {
  if (actor.role === "SuperAdmin") return ALL_ROLES;
  if (actor.role === "Admin") return ["NormalUser", "UnlimitedUser"];
  return [];
}

/** Admin manages non-admin accounts (and their own profile); SuperAdmin manages everyone. */
export function canEditUser(actor: Actor, target: Target): boolean {
  if (actor.role === "SuperAdmin") return true;
  if (actor.role === "Admin") return !isAdmin(target.role) || target.id === actor.id;
  return false;
}

/** Nobody changes their own role (so there is always a SuperAdmin left). */
export function canChangeRole(actor: Actor, target: Target): boolean {
  return actor.id !== target.id && canEditUser(actor, target);
}

/** Nobody blocks themselves; Admin blocks only non-admin accounts. */
export function canBlockUser(actor: Actor, target: Target): boolean {
  if (actor.id === target.id) return false;
  if (actor.role === "SuperAdmin") return true;
  if (actor.role === "Admin") return !isAdmin(target.role);
  return false;
}

/** Only SuperAdmin deletes, never themselves. */
export function canDeleteUser(actor: Actor, target: Target): boolean {
  return actor.role === "SuperAdmin" && actor.id !== target.id;
}

export const ROLE_LABELS: Record<RoleName, string> = {
  NormalUser: "Normal User",
  UnlimitedUser: "Unlimited User",
  Admin: "Admin",
  SuperAdmin: "Super Admin",
};

/** Spec: toggling Active gives Blocked; any other status (Blocked, Pending, Draft) gives Active. */
export function toggledStatus(status: string): "Active" | "Blocked" {
  return status === "Active" ? "Blocked" : "Active";
}

/** Page links (one rule for every paginated screen). */
export { pageLinks } from "~/utils/pagination";
