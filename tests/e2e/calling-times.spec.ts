import { expect, test } from "./fixtures";
import { signInAsAdmin } from "./helpers";
import { horizontalOverflow } from "./screens";

/*
 * "Add calling times" (issue #29, decision 131), JavaScript on and off, at 390 px: the column step's checkbox, the
 * results screen's callable now / later today / not today and good numbers by time zone, the Good file's three
 * columns, and the same answers as the live lookup would give (the wizard's instant is the purge's start).
 */

const CSV = ["Name,Phone", "Ann,212-555-2345", "Bob,205-555-2345", "Cy,928-283-2345", "Ed,800-555-2345", "Fay,12"].join("\n");

test.use({ viewport: { width: 390, height: 844 } });

test("Add calling times: the Good file gains time zone, callable now and next call time; the results count them", async ({ page }, info) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/purge?step=4&type=LitigationOnly&mode=csv");
  await page.getByLabel("CSV file").setInputFiles({ name: `calls-${info.project.name}.csv`, mimeType: "text/csv", buffer: Buffer.from(CSV) });
  await page.getByRole("button", { name: "Next" }).click();

  await expect(page.getByText("Step 5 of 6: Column Selection")).toBeVisible();
  const box = page.getByRole("checkbox", { name: /Add calling times/ });
  await expect(box).not.toBeChecked();
  expect(await horizontalOverflow(page)).toBe(0);
  await box.check();
  await page.getByRole("button", { name: "Start Purging" }).click();

  await expect(page.getByText("Step 6 of 6: Results")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("results")).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/calling=1/);
  await expect(page.getByTestId("count-good-value")).toHaveText("4");
  const section = page.getByTestId("calling-times");
  await expect(section).toBeVisible();
  // the rules version links to its entry on the public rules page (decision 178)
  await expect(section.getByTestId("calling-rules-link")).toHaveAttribute("href", /^\/rules#rules-\d{4}-\d{2}-\d{2}\.\d+$/);
  const counts = await Promise.all(["now", "later", "not-today"].map(async (k) => Number(await page.getByTestId(`calling-${k}-value`).textContent())));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(3); // the toll-free number has no time zone: counted apart
  await expect(page.getByTestId("calling-no-zone")).toContainText("1 toll-free or other non-geographic numbers");
  const chart = page.getByRole("list", { name: "Good numbers by time zone" });
  // zones as people name them (#44), the IANA ids in the tooltip
  await expect(chart).toContainText("Eastern");
  await expect(chart).toContainText("Central");
  await expect(chart.getByText("Mountain + Arizona")).toHaveAttribute("title", "America/Denver + America/Phoenix");
  await expect(chart).not.toContainText("America/");
  expect(await horizontalOverflow(page)).toBe(0);

  const href = await page.getByTestId("download-good").first().getAttribute("href");
  const good = await (await page.request.get(href!)).text();
  const lines = good.trim().split("\n");
  expect(lines[0]).toBe("Name,Phone,phone_e164,time_zone,callable_now,next_call_at,next_call_local,calling_note,calls_24h,calls_7d");
  // calling_note (decision 180): empty when callable now, else the rule that holds the call back, with its citation
  expect(lines[1]).toMatch(
    /^Ann,212-555-2345,\+12125552345,America\/New_York,(yes,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[45]:00,|no,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[45]:00,.*\(.+\)"?),0,0$/,
  );
  expect(lines[2]).toMatch(/^Bob,205-555-2345,\+12055552345,America\/Chicago,(yes|no),/);
  expect(lines[3]).toMatch(/^Cy,928-283-2345,\+19282832345,America\/Denver\|America\/Phoenix,(yes|no),/);
  // a number without a time zone: the strictest reading across every US time zone, and the note says so
  expect(lines[4]).toMatch(
    /^Ed,800-555-2345,\+18005552345,,(yes|no),\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z,,"?No time zone for this number: the strictest reading across every US time zone/,
  );
  // callable now means the next call time is the instant itself: every "yes" row shares one instant
  const yes = lines
    .slice(1, 4)
    .filter((l) => l.includes(",yes,"))
    .map((l) => l.split(",")[5]);
  expect(new Set(yes).size).toBeLessThanOrEqual(1);

  // history leads back (#44): the row says calling times were used, and its name opens these results
  await page.goto("/history");
  const row = page
    .getByTestId("history-row")
    .filter({ hasText: `calls-${info.project.name}.csv` })
    .first();
  await expect(row.getByTestId("row-features")).toHaveText("Calling times");
  await row.getByRole("link", { name: `calls-${info.project.name}.csv` }).click();
  await expect(page.getByTestId("calling-times")).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);
});

test.describe("plan calling ahead (#44)", () => {
  test.use({ timezoneId: "America/Chicago" });

  test("typed numbers get the calling-times choice, answered for tomorrow 05:00 in the analyst's own zone, and say why they wait", async ({
    page,
    javaScriptEnabled,
  }) => {
    await signInAsAdmin(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/purge?step=4&type=LitigationOnly&mode=manual");
    await page.getByLabel("Phone numbers").fill("2125552345\n3105552199");
    const choice = page.getByTestId("calling-choice");
    // the zone is the browser's once JavaScript has said it; without JavaScript the server can only say UTC
    const zone = javaScriptEnabled ? "America/Chicago" : "UTC";
    await expect(choice.getByText(javaScriptEnabled ? "Answer for (your time: Central, America/Chicago)" : "Answer for (your time: UTC)")).toBeVisible();
    await choice.getByRole("checkbox", { name: /Add calling times/ }).check();
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    // 05:00 in Chicago (06:00 in New York, 03:00 in Los Angeles) or, without JavaScript, 05:00 UTC (the night before
    // on both coasts): both numbers wait, whichever zone the page had
    await choice.getByLabel(/^Answer for/).fill(`${tomorrow}T05:00`);
    expect(await horizontalOverflow(page)).toBe(0);
    await page.getByRole("button", { name: "Start Purging" }).click();
    await expect(page.getByTestId("results")).toBeVisible({ timeout: 30_000 });
    const offsetHours =
      zone === "UTC"
        ? 0
        : -Number(
            new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "shortOffset" })
              .formatToParts(new Date(`${tomorrow}T15:00:00Z`))
              .find((p) => p.type === "timeZoneName")!
              .value.replace("GMT", ""),
          );
    const expected = new Date(Date.parse(`${tomorrow}T05:00:00Z`) + offsetHours * 3_600_000).toISOString().replace("T", " ").replace(".000Z", " UTC");
    await expect(page.getByTestId("calling-times")).toContainText(`Good numbers at ${expected}`);
    // why not now (#44): each rule that held numbers back, with its count, linking to /rules
    const held = page.getByRole("table", { name: /Why numbers were held back/ });
    await expect(held).toBeVisible();
    const counts = await held.locator("tbody tr td:last-child").allTextContents();
    expect(counts.map(Number).reduce((a, b) => a + b, 0)).toBe(2);
    await expect(held).toContainText(/\d+ (a\.m\.|p\.m\.)/);
    await expect(held.getByRole("link", { name: "every rule and its source" })).toHaveAttribute("href", /^\/rules#rules-/);
    expect(await horizontalOverflow(page)).toBe(0);
  });
});
