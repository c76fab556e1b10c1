import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures";
import { signInAsAdmin } from "./helpers";

test.describe("landing page", () => {
  test("header, hero, features, plan cards, anchors and footer", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/login");
    await expect(header.getByRole("link", { name: "Get Started" })).toHaveAttribute("href", "/signup");
    await expect(header.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Create Your Account" })).toHaveAttribute("href", "/signup");
    // No trial exists (decision 120): nothing promises one.
    await expect(page.getByText(/free trial/i)).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Learn More" })).toHaveAttribute("href", "#features");
    await expect(page.getByTestId("feature-card")).toHaveCount(4);
    for (const title of ["Smart Storage", "Fast Processing", "Enterprise Security", "Team Collaboration"]) {
      await expect(page.getByRole("heading", { name: title })).toBeVisible();
    }
    const cards = page.getByTestId("pricing-cards").locator("section");
    await expect(cards).toHaveCount(3);
    await expect(cards.nth(0)).toContainText("Beginner");
    await expect(cards.nth(0)).toContainText("$100");
    await expect(cards.nth(1)).toContainText("Most Popular");
    await expect(cards.nth(2)).toContainText("$1,000");
    for (const id of ["features", "pricing", "about", "api", "docs", "support", "contact"]) {
      await expect(page.locator(`#${id}`)).toHaveCount(1);
    }
    const footer = page.getByRole("contentinfo");
    await expect(footer).toContainText("1450 Brickell Avenue, Suite 1800");
    await expect(footer).toContainText("+1 (305) 555-0148");
    await page.getByRole("link", { name: "Learn More" }).click();
    await expect(page).toHaveURL(/#features$/);
  });

  test("the API reference and the OpenAPI document are public", async ({ page, request }) => {
    await page.goto("/docs/api");
    await expect(page.getByRole("heading", { name: "API Reference" })).toBeVisible();
    const res = await request.get("/api/v1/openapi.json");
    expect(res.status()).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    // one row per operation of the OpenAPI document, whatever operations it has now
    const methods = new Set(["get", "post", "put", "patch", "delete"]);
    const operations = Object.values(doc.paths as Record<string, Record<string, unknown>>).flatMap((ops) => Object.keys(ops).filter((m) => methods.has(m)));
    expect(operations.length).toBeGreaterThanOrEqual(23);
    await expect(page.getByTestId("endpoint")).toHaveCount(operations.length);
    await expect(page.getByTestId("endpoint").filter({ hasText: "/lookup" })).toBeVisible();
    await expect(page.getByTestId("endpoint").filter({ hasText: "/exemption-lists/{id}" }).first()).toBeVisible();
    await expect(page.getByTestId("endpoint").filter({ hasText: "/scrubs/{id}/certificate" })).toBeVisible();
    await expect(page.getByTestId("endpoint").filter({ hasText: "/opt-outs" }).first()).toBeVisible();
    await expect(page.getByTestId("endpoint").filter({ hasText: "/compat/dncscrub/scrub" }).first()).toBeVisible();
  });
});

/** A webhook receiver on loopback for this test (at most `max` requests are accepted). */
async function startReceiver(max = 10) {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(received.length > max ? 410 : 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => new Promise((r) => server.close(r)) };
}

test.describe("integrations", () => {
  test("create an integration, use its key, toggle, webhook on completion, revoke", async ({ page, request }) => {
    const receiver = await startReceiver();
    try {
      await signInAsAdmin(page);
      await expect(page).toHaveURL(/\/dashboard/);
      // Signed in, the landing page also offers the way back in.
      await page.goto("/");
      await expect(page.getByRole("banner").getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/dashboard");
      await page.goto("/dashboard");
      await page.getByRole("link", { name: "Integrations" }).click();
      await expect(page.getByRole("heading", { name: "API Integrations" })).toBeVisible();
      await expect(page.getByText("1000 requests per hour").first()).toBeVisible();
      await expect(page.getByRole("link", { name: "View API Reference" })).toHaveAttribute("href", "/docs/api");

      await page.getByRole("link", { name: "Create Integration" }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog.getByRole("heading", { name: "Create Integration" })).toBeVisible();
      // Validation (server-side without JS, client-side with it).
      await dialog.getByRole("button", { name: "Create Integration" }).click();
      await expect(dialog.getByText("Name is required")).toBeVisible();
      const name = `CRM ${Date.now()}`;
      await dialog.getByLabel("Name").fill(name);
      await dialog.getByLabel("Description").fill("Nightly sync");
      await dialog.getByLabel(/Webhook URL/).fill(receiver.url);
      await dialog.getByRole("button", { name: "Create Integration" }).click();

      const key = await page.getByTestId("revealed-api-key").inputValue();
      const secret = await page.getByTestId("revealed-webhook-secret").inputValue();
      expect(key).toMatch(/^dpt_/);
      expect(secret).toMatch(/^whsec_/);
      await page.getByRole("link", { name: "Done" }).click();
      await expect(page.getByTestId("integration-row").filter({ hasText: name })).toBeVisible();

      const auth = { Authorization: `Bearer ${key}` };
      const usage = await request.get("/api/v1/usage", { headers: auth });
      expect(usage.status()).toBe(200);
      expect(usage.headers()["x-ratelimit-limit"]).toBe("1000");

      // Rate limiting toggle.
      const rate = page.getByRole("switch", { name: "Rate limiting" });
      await expect(rate).toHaveAttribute("aria-checked", "true");
      await rate.click();
      await expect(page.getByRole("switch", { name: "Rate limiting" })).toHaveAttribute("aria-checked", "false");
      await expect(page.getByText("Rate limiting turned off")).toBeVisible();

      // A scrub through the API runs on the real engine and ends with a signed webhook.
      const submit = await request.post("/api/v1/scrubs", {
        headers: auth,
        data: { numbers: ["2125552142", "2125552142", "12345", "3055552101"], suppression_type: "LitigationOnly" },
      });
      expect(submit.status()).toBe(202);
      const jobId = (await submit.json()).job.id as string;
      await expect
        .poll(async () => (await (await request.get(`/api/v1/scrubs/${jobId}`, { headers: auth })).json()).job.status, { timeout: 30_000 })
        .toBe("completed");
      const job = (await (await request.get(`/api/v1/scrubs/${jobId}`, { headers: auth })).json()).job;
      expect(job.counts.good + job.counts.bad + job.counts.invalid).toBe(4);
      const good = await request.get(`/api/v1/scrubs/${jobId}/files/good`, { headers: auth });
      expect(good.status()).toBe(200);
      expect(await good.text()).toContain("2125552142");

      await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(1);
      const hook = receiver.received[0];
      const expected = crypto.createHmac("sha256", secret).update(`${hook.headers["x-webhook-timestamp"]}.${hook.body}`).digest("hex");
      expect(hook.headers["x-signature"]).toBe(`sha256=${expected}`);
      expect(JSON.parse(hook.body)).toMatchObject({ type: "scrub.completed", data: { job: { id: jobId, status: "completed" } } });

      await page.reload();
      await expect(page.getByTestId("delivery-row").first()).toContainText("200 Delivered");

      // A second key, revoked: it stops working at once.
      await page.getByLabel("New key name").fill("Temporary");
      await page.getByRole("button", { name: "Create API Key" }).click();
      const temp = await page.getByTestId("revealed-api-key").inputValue();
      expect(temp).toMatch(/^dpt_/);
      await page.getByRole("link", { name: "Done" }).click();
      expect((await request.get("/api/v1/usage", { headers: { Authorization: `Bearer ${temp}` } })).status()).toBe(200);
      await page.getByRole("link", { name: "Rename Temporary" }).click();
      await page.getByLabel("Key name", { exact: true }).fill("Short-lived");
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.getByText("API Key Renamed")).toBeVisible();
      await page.getByRole("button", { name: "Revoke Short-lived" }).click();
      await expect(page.getByText("API Key Revoked")).toBeVisible();
      const revoked = await request.get("/api/v1/usage", { headers: { Authorization: `Bearer ${temp}` } });
      expect(revoked.status()).toBe(401);
      expect((await revoked.json()).error.code).toBe("api_key_revoked");
      // The first key still works.
      expect((await request.get("/api/v1/usage", { headers: auth })).status()).toBe(200);
    } finally {
      await receiver.close();
    }
  });

  test("API: add numbers to a container, then a CSV scrub suppresses them", async ({ page, request }) => {
    await signInAsAdmin(page);
    await expect(page).toHaveURL(/\/dashboard/);
    await page.goto("/integrations?dialog=create-integration");
    await page.getByRole("dialog").getByLabel("Name").fill(`Dialer ${Date.now()}`);
    await page.getByRole("dialog").getByRole("button", { name: "Create Integration" }).click();
    const auth = { Authorization: `Bearer ${await page.getByTestId("revealed-api-key").inputValue()}` };

    // A container made on the Containers screen is reachable through the API by id.
    const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
    const category = `API cat ${stamp}`;
    const containerName = `API list ${stamp}`;
    await page.goto("/containers");
    await page.getByRole("link", { name: "Create Category" }).first().click();
    const catDialog = page.getByRole("dialog", { name: "Create Category" });
    await catDialog.getByLabel("Category name").fill(category);
    await catDialog.getByRole("button", { name: "Create Category" }).click();
    await expect(page.getByText("Category Created")).toBeVisible();
    await page.getByRole("link", { name: "Create Container" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Create Container" });
    await dialog.getByLabel("Container name").fill(containerName);
    await dialog.getByLabel("Category").selectOption({ label: category });
    await dialog.getByLabel("Phone numbers").fill("2015552123");
    await dialog.getByRole("button", { name: "Create Container" }).click();
    await expect(page.getByText("Container Created")).toBeVisible();
    const listed = (await (await request.get("/api/v1/containers", { headers: auth })).json()).data as { id: number; name: string; category: string }[];
    const container = listed.find((c) => c.name === containerName)!;
    expect(container.category).toBe(category);
    const add = await request.post(`/api/v1/containers/${container.id}/numbers`, { headers: auth, data: { numbers: ["(305) 555-2199", "3055552198"] } });
    expect(add.status()).toBe(202);
    const load = (await add.json()).load;
    await expect
      .poll(async () => (await (await request.get(`/api/v1/containers/${container.id}/loads/${load.id}`, { headers: auth })).json()).load.status, {
        timeout: 30_000,
      })
      .toBe("completed");

    const submit = await request.post("/api/v1/scrubs", {
      headers: auth,
      multipart: {
        file: { name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from("Name,Mobile\nAnn,3055552199\nBob,2125552142\nCat,not a number\n") },
        suppression_type: "LitigationOnly",
        column: "Mobile",
        container_id: String(container.id),
      },
    });
    expect(submit.status()).toBe(202);
    const id = (await submit.json()).job.id as string;
    await expect
      .poll(async () => (await (await request.get(`/api/v1/scrubs/${id}`, { headers: auth })).json()).job.status, { timeout: 30_000 })
      .toBe("completed");
    const job = (await (await request.get(`/api/v1/scrubs/${id}`, { headers: auth })).json()).job;
    expect(job.counts).toMatchObject({ good: 1, bad: 1, invalid: 1 });
    const bad = await (await request.get(`/api/v1/scrubs/${id}/files/bad`, { headers: auth })).text();
    expect(bad).toContain("Ann");
    expect(bad).toContain("container");

    // The real engine's reader refuses a binary file before any job exists.
    const binary = await request.post("/api/v1/scrubs", {
      headers: auth,
      multipart: {
        file: { name: "photo.csv", mimeType: "text/csv", buffer: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 0x14, 0, 0, 0]) },
        suppression_type: "LitigationOnly",
      },
    });
    expect(binary.status()).toBe(422);
    expect((await binary.json()).error.code).toBe("validation_failed");
  });

  test("the integrations page needs a session", async ({ page }) => {
    await page.goto("/integrations");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fintegrations/);
  });
});
