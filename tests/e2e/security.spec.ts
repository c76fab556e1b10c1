import { expect, test } from "./fixtures";
import { signInAsAdmin } from "./helpers";

test("cross-site form posts are refused before they reach an action", async ({ request, baseURL }) => {
  const evil = await request.post("/login", {
    headers: { Origin: "http://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
    data: "email=admin%40example.com&password=x",
    maxRedirects: 0,
  });
  expect(evil.status()).toBe(403);
  expect(await evil.text()).toContain("Cross-site request refused.");

  const fetchSite = await request.post("/logout", { headers: { "Sec-Fetch-Site": "cross-site" }, maxRedirects: 0 });
  expect(fetchSite.status()).toBe(403);

  const same = await request.post("/login", {
    headers: { Origin: new URL(baseURL!).origin, "Content-Type": "application/x-www-form-urlencoded" },
    data: "email=admin%40example.com&password=wrong-password",
    maxRedirects: 0,
  });
  expect(same.status()).toBe(401);
});

test("every page carries the security headers", async ({ request }) => {
  for (const path of ["/", "/login", "/no-such-page"]) {
    const res = await request.get(path);
    const h = res.headers();
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(h["x-powered-by"]).toBeUndefined();
  }
});

test("the session cookie is HttpOnly and SameSite=Lax", async ({ request }) => {
  const res = await request.post("/login", {
    form: { email: "admin@example.com", password: "demo-admin-password", redirectTo: "/dashboard" },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
  const setCookie = res.headers()["set-cookie"];
  expect(setCookie).toMatch(/__session=/);
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Lax/i);
});

test("signed-in pages and their data loads are never cached; static assets are", async ({ page, request }) => {
  const anonymous = await request.get("/login");
  expect(anonymous.headers()["cache-control"]).toBe("no-store");
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard/);
  for (const path of ["/dashboard", "/history", "/profile", "/dashboard.data"]) {
    const res = await page.request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()["cache-control"], path).toBe("no-store");
  }
  const asset = await page.request.get("/favicon.svg");
  expect(asset.status()).toBe(200);
  expect(asset.headers()["cache-control"]).toBe("public, max-age=3600");
});
