import { expect, test } from "./fixtures";
import { signInAsAdmin } from "./helpers";
import { formatDateTime } from "../../app/utils/format";

/*
 * #19 item 8: one date format, in the viewer's time zone, with the zone named. The browser runs in New York.
 * With JavaScript the page switches to the browser's zone after hydration (no mismatch: it hydrates in the
 * server's zone) and stores it in the `tz` cookie, so the next server render is in New York already. Without
 * JavaScript the server cannot know the zone and says UTC.
 */
test.use({ timezoneId: "America/New_York" });

const DATE_TIME = /^[A-Z][a-z]{2} \d{2}, \d{4}, \d{1,2}:\d{2} [AP]M [A-Z]{3}$/;

test("History shows each purge's time in the viewer's zone, named (UTC without JavaScript), at 1280 and 390 px", async ({
  page,
  context,
  javaScriptEnabled,
}) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/purge?step=4&mode=manual&type=LitigationOnly");
  await page.getByLabel("Phone numbers").fill("2025552111");
  await page.getByRole("button", { name: "Start Purging" }).click();
  await expect(page.getByTestId("results")).toBeVisible();

  const zone = javaScriptEnabled ? "America/New_York" : "UTC";
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/history");
    const when = page.locator("main time").first();
    await expect(when).toHaveText(DATE_TIME);
    await expect(when).toHaveText(javaScriptEnabled ? / E[SD]T$/ : / UTC$/);
    const iso = await when.getAttribute("datetime");
    expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    await expect(when).toHaveText(formatDateTime(iso!, zone));
  }

  const tz = (await context.cookies()).find((c) => c.name === "tz");
  const html = await (await page.request.get("/history")).text();
  if (javaScriptEnabled) {
    // Stored for the server: its own HTML is now in New York time.
    expect(decodeURIComponent(tz?.value ?? "")).toBe("America/New_York");
    expect(html).toMatch(/<time[^>]*>[A-Z][a-z]{2} \d{2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T<\/time>/);
  } else {
    expect(tz).toBeUndefined();
    expect(html).toMatch(/<time[^>]*>[A-Z][a-z]{2} \d{2}, \d{4}, \d{1,2}:\d{2} [AP]M UTC<\/time>/);
  }
});

test("a forged tz cookie falls back to UTC and never reaches the page", async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: "tz", value: encodeURIComponent("<script>alert(1)</script>"), url: baseURL! }]);
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  const html = await (await page.request.get("/history")).text();
  expect(html).not.toContain("<script>alert(1)</script>");
  expect(html).not.toContain("alert(1)");
});

test("a registry date is a calendar day: the certificate in a New York browser says the day the DNC page says (#44)", async ({ page }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  // a DNC release dated 3 days ago (UTC midnight: in New York, the evening before)
  const released = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
  await page.goto("/dnc?dialog=add&type=1");
  const add = page.getByRole("dialog", { name: "Add Numbers" });
  await add.getByLabel("Phone numbers").fill(`202555${2000 + Math.floor(Math.random() * 1000)}`);
  await add.getByLabel("Registry date").fill(released);
  await add.getByRole("button", { name: "Add Numbers" }).click();
  await expect(page).toHaveURL(/\/dnc$/);
  await page.goto("/purge?step=4&mode=manual&type=DNCAndLitigation");
  await page.getByLabel("Phone numbers").fill("2025552112");
  await page.getByRole("button", { name: "Start Purging" }).click();
  await expect(page.getByTestId("results")).toBeVisible();
  const href = await page.getByTestId("certificate-html").getAttribute("href");
  const day = new Date(`${released}T00:00:00Z`);
  const shown = `${day.toLocaleString("en-US", { month: "short", timeZone: "UTC" })} ${String(day.getUTCDate()).padStart(2, "0")}, ${day.getUTCFullYear()}`;
  await page.goto(href!);
  await expect(page.getByText(`Registry date ${shown}`).first()).toBeVisible();
  await expect(page.locator(`time[datetime="${released}"]`).first()).toHaveText(shown);
});
