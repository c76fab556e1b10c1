import { describe, expect, it } from "vitest";
import { makeRequest } from "../setup/request";
import { callRoute, statusOf } from "../setup/routes";
import { useAppTestDb } from "../setup/db";
import { loader as resetLoader } from "~/routes/auth.resetpassword.($token).($userId)";
import { loader as activationLoader } from "~/routes/auth.activation.($token).($userId)";
import { loader as invitationLoader } from "~/routes/auth.invitation.$";
import { redirectToUsedLink } from "~/accounts/link-done.server";

/*
 * #13 item 10: after a successful reset, confirmation or invitation the action redirects back to the link
 * (303, with a cookie scoped to that link's path) and the page answers 200 with its success state. The
 * round trips themselves are in app/routes/account-lifecycle.test.ts and auth.invitation.test.ts; here: the
 * cookie never makes another link, another kind or an unused link's page claim success.
 */
useAppTestDb();

const TOKEN = "A".repeat(43);
const USER = "00000000-0000-4000-8000-000000000001";

describe("the page of a just-used link", () => {
  /** The cookie pair the action sets after using the link at `path`. */
  function doneCookie(path: string, kind: "reset" | "activation" | "invitation"): string {
    return redirectToUsedLink(makeRequest(path, { form: {} }), kind)
      .headers.getSetCookie()[0]
      .split(";")[0];
  }

  it("the redirect goes to the link's own path (303) with a short, HttpOnly cookie beside the action's own", () => {
    const res = redirectToUsedLink(makeRequest(`/auth/resetpassword/${TOKEN}/${USER}`, { form: {} }), "reset", [["Set-Cookie", "s=1"]]);
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/auth/resetpassword/${TOKEN}/${USER}`);
    const cookies = res.headers.getSetCookie();
    expect(cookies[0]).toBe("s=1");
    expect(cookies[1]).toMatch(/^link_done=[\w-]{43}; Path=\/auth; Max-Age=300; HttpOnly; SameSite=Lax/);
  });

  it("a used link shows success with 200 only with the cookie of its own kind, and the answer clears the cookie", async () => {
    const pages = [
      { kind: "reset", loader: resetLoader, path: `/auth/resetpassword/${TOKEN}/${USER}`, params: { token: TOKEN, userId: USER }, done: "done", refused: 400 },
      {
        kind: "activation",
        loader: activationLoader,
        path: `/auth/activation/${TOKEN}/${USER}`,
        params: { token: TOKEN, userId: USER },
        done: "confirmed",
        refused: 400,
      },
      {
        kind: "invitation",
        loader: invitationLoader,
        path: `/auth/invitation/${TOKEN}/${USER}`,
        params: { "*": `${TOKEN}/${USER}` },
        done: "done",
        refused: 404,
      },
    ] as const;
    for (const p of pages) {
      const call = (cookie?: string) =>
        callRoute(p.loader as never, makeRequest(p.path, { cookie }), p.params) as Promise<{
          data: { state: string };
          init?: { headers?: Record<string, string> };
        }>;
      const without = await call();
      expect(statusOf(without), p.kind).toBe(p.refused);
      const otherKind = await call(doneCookie(p.path, p.kind === "reset" ? "activation" : "reset"));
      expect(statusOf(otherKind), p.kind).toBe(p.refused);
      const otherLink = await call(doneCookie(p.path.replace(USER, "00000000-0000-4000-8000-000000000002"), p.kind));
      expect(statusOf(otherLink), p.kind).toBe(p.refused);
      expect(statusOf(await call(`link_done=${p.kind}`)), p.kind).toBe(p.refused);
      const used = await call(doneCookie(p.path, p.kind));
      expect(statusOf(used), p.kind).toBe(200);
      expect(used.data.state, p.kind).toBe(p.done);
      expect(used.init?.headers?.["Set-Cookie"], p.kind).toMatch(/^link_done=; Path=\/auth; Max-Age=0;/);
    }
  });
});
