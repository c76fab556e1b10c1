import { createCookie, createSessionStorage, type Session } from "@remix-run/node";
import { getDb } from "./db.server";
import { env } from "./env.server";
import { randomToken, sha256 } from "./crypto.server";
import { singleton } from "./singleton.server";

export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 14;

async function cookieSecret(): Promise<string> {
  const configured = env().SESSION_SECRET;
  if (configured) return configured;
  const db = await getDb();
  await db
    .insertInto("app_secrets")
    .values({ name: "session_secret", value: randomToken() })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await db.selectFrom("app_secrets").select("value").where("name", "=", "session_secret").executeTakeFirstOrThrow();
  return row.value;
}

export function secureCookies(): boolean {
  const e = env();
  return e.SECURE_COOKIES ? e.SECURE_COOKIES === "1" : e.NODE_ENV === "production";
}

/**
 * Server-side sessions: the cookie carries only a random id; the row (keyed by its hash) holds the data,
 * so logout, block, delete and password reset end sessions at once.
 */
export const sessionStorage = () =>
  singleton("sessionStorage", async () => {
    const cookie = createCookie("__session", {
      httpOnly: true,
      sameSite: "lax",
      secure: secureCookies(),
      path: "/",
      maxAge: SESSION_MAX_AGE_SECONDS,
      secrets: [await cookieSecret()],
    });
    return createSessionStorage({
      cookie,
      async createData(data, expires) {
        const db = await getDb();
        const id = randomToken();
        await db
          .insertInto("sessions")
          .values({
            id_hash: sha256(id),
            user_id: (data.userId as string | undefined) ?? null,
            data: JSON.stringify(data),
            expires_at: expires ?? new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000),
          })
          .execute();
        return id;
      },
      async readData(id) {
        const db = await getDb();
        const row = await db.selectFrom("sessions").select(["data", "expires_at"]).where("id_hash", "=", sha256(id)).executeTakeFirst();
        if (!row) return null;
        if (row.expires_at.getTime() < Date.now()) {
          await db.deleteFrom("sessions").where("id_hash", "=", sha256(id)).execute();
          return null;
        }
        return row.data;
      },
      async updateData(id, data, expires) {
        const db = await getDb();
        await db
          .updateTable("sessions")
          .set({
            data: JSON.stringify(data),
            user_id: (data.userId as string | undefined) ?? null,
            expires_at: expires ?? new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000),
          })
          .where("id_hash", "=", sha256(id))
          .execute();
      },
      async deleteData(id) {
        const db = await getDb();
        await db.deleteFrom("sessions").where("id_hash", "=", sha256(id)).execute();
      },
    });
  });

export async function getSession(request: Request): Promise<Session> {
  return (await sessionStorage()).getSession(request.headers.get("Cookie"));
}

export async function commitSession(session: Session): Promise<string> {
  return (await sessionStorage()).commitSession(session);
}

export async function destroySession(session: Session): Promise<string> {
  return (await sessionStorage()).destroySession(session);
}

/** Ends every session of a user (block, delete, password reset), optionally keeping one. */
export async function endUserSessions(userId: string, exceptSession?: Session): Promise<void> {
  const db = await getDb();
  let q = db.deleteFrom("sessions").where("user_id", "=", userId);
  if (exceptSession?.id) q = q.where("id_hash", "<>", sha256(exceptSession.id));
  await q.execute();
}

export type ToastKind = "success" | "error" | "info";
export interface Toast {
  kind: ToastKind;
  title: string;
  description?: string;
}

/** Flash a toast for the next page (works without JavaScript). Returns the Set-Cookie header value. */
export async function flashToast(request: Request, toast: Toast): Promise<string> {
  const session = await getSession(request);
  session.flash("toast", toast);
  return commitSession(session);
}
