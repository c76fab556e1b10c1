import { describe, expect, it } from "vitest";
import { canBlockUser, canChangeRole, canDeleteUser, canEditUser, grantableRoles, pageLinks, toggledStatus } from "./user-permissions";

const superAdmin = { id: "s", role: "SuperAdmin" as const };
const admin = { id: "a", role: "Admin" as const };
const otherAdmin = { id: "a2", role: "Admin" as const };
const normal = { id: "n", role: "NormalUser" as const };
const unlimited = { id: "u", role: "UnlimitedUser" as const };

describe("user management rules", () => {
  it("only SuperAdmin grants Admin or SuperAdmin", () => {
    expect(grantableRoles(superAdmin)).toEqual(["NormalUser", "UnlimitedUser", "Admin", "SuperAdmin"]);
    expect(grantableRoles(admin)).toEqual(["NormalUser", "UnlimitedUser"]);
    expect(grantableRoles(normal)).toEqual([]);
  });

  it("Admin manages non-admin accounts and their own profile; nobody changes their own role, blocks or deletes themselves", () => {
    expect(canEditUser(admin, normal)).toBe(true);
    expect(canEditUser(admin, unlimited)).toBe(true);
    expect(canEditUser(admin, superAdmin)).toBe(false);
    expect(canEditUser(admin, otherAdmin)).toBe(false);
    expect(canEditUser(admin, admin)).toBe(true);
    expect(canChangeRole(admin, admin)).toBe(false);
    expect(canChangeRole(superAdmin, superAdmin)).toBe(false);
    expect(canChangeRole(superAdmin, admin)).toBe(true);
    expect(canBlockUser(admin, normal)).toBe(true);
    expect(canBlockUser(admin, superAdmin)).toBe(false);
    expect(canBlockUser(admin, admin)).toBe(false);
    expect(canBlockUser(superAdmin, admin)).toBe(true);
    expect(canBlockUser(superAdmin, superAdmin)).toBe(false);
    expect(canDeleteUser(admin, normal)).toBe(false);
    expect(canDeleteUser(superAdmin, normal)).toBe(true);
    expect(canDeleteUser(superAdmin, superAdmin)).toBe(false);
    expect(canEditUser(normal, normal)).toBe(false);
    expect(canBlockUser(unlimited, normal)).toBe(false);
  });

  it("toggles Active to Blocked and anything else to Active", () => {
    expect(toggledStatus("Active")).toBe("Blocked");
    expect(toggledStatus("Blocked")).toBe("Active");
    expect(toggledStatus("Pending")).toBe("Active");
  });

  it("page links: first, last and ±2 around the current page, with ellipses", () => {
    expect(pageLinks(1, 1)).toEqual([1]);
    expect(pageLinks(1, 5)).toEqual([1, 2, 3, "ellipsis", 5]);
    expect(pageLinks(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageLinks(1, 10)).toEqual([1, 2, 3, "ellipsis", 10]);
    expect(pageLinks(6, 12)).toEqual([1, "ellipsis", 4, 5, 6, 7, 8, "ellipsis", 12]);
    expect(pageLinks(4, 12)).toEqual([1, 2, 3, 4, 5, 6, "ellipsis", 12]);
    expect(pageLinks(12, 12)).toEqual([1, "ellipsis", 10, 11, 12]);
  });
});
