import { getDb } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { findLiveUserByEmail } from "~/models/user.server";

/** Stated in the README; created only in embedded mode (or with DEMO_ADMIN=1). */
export const DEMO_ADMIN = { email: "admin@example.com", password: "demo-admin-password" } as const;

export async function ensureDemoAdmin(): Promise<boolean> {
  const db = await getDb();
  if (await findLiveUserByEmail(db, DEMO_ADMIN.email)) return false;
  await db
    .insertInto("users")
    .values({
      email: DEMO_ADMIN.email,
      first_name: "Demo",
      last_name: "Admin",
      company: "Demo Company",
      phone_number: "",
      password_hash: await hashPassword(DEMO_ADMIN.password),
      role: "SuperAdmin",
      status: "Active",
      email_confirmed: true,
    })
    .execute();
  return true;
}
