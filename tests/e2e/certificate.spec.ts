import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "./fixtures";
import { signInAsAdmin } from "./helpers";

/*
 * A purge's signed certificate: downloaded from the results screen, shown as a printable page, and checked on
 * the public /verify page with the result files (hashed in the browser with JS on, on the server with JS off).
 */

async function purgeAndDownload(page: Page, dir: string) {
  await page.goto("/purge?step=4&mode=manual");
  await page.getByLabel("Phone numbers").fill("2125552101\n3125552188, 2125552101");
  await page.getByRole("button", { name: "Start Purging" }).click();
  await expect(page.getByText("Step 6 of 6: Results")).toBeVisible();
  await expect(page.getByTestId("certificate-links")).toBeVisible();
  const save = async (testId: string, name: string) => {
    const href = await page.getByTestId(testId).first().getAttribute("href");
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    const file = path.join(dir, name);
    fs.writeFileSync(file, await res.body());
    return file;
  };
  const cert = await save("certificate-json", "certificate.json");
  const good = await save("download-good", "good.csv");
  const bad = await save("download-bad", "bad.csv");
  return { cert, good, bad };
}

test("a purge's certificate downloads, prints, and verifies on /verify; a changed file is named", async ({ page }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cert-e2e-"));
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  const files = await purgeAndDownload(page, dir);
  const cert = JSON.parse(fs.readFileSync(files.cert, "utf8"));
  expect(cert.certificate.format).toBe("scrub-certificate/1");
  expect(cert.signature.algorithm).toBe("Ed25519");

  await page.getByTestId("certificate-html").click();
  await expect(page.getByRole("heading", { name: "Scrub Certificate" })).toBeVisible();
  await expect(page.getByText(cert.certificate.outputs.good.sha256)).toBeVisible();

  const keys = await (await page.request.get("/.well-known/scrub-certificate-key")).json();
  expect(keys.keys.map((k: { keyId: string }) => k.keyId)).toContain(cert.signature.keyId);

  // the verifier is public: signed out
  await page.context().clearCookies();
  await page.goto("/verify");
  await page.setInputFiles('input[name="certificate"]', files.cert);
  await page.setInputFiles('input[name="good"]', files.good);
  await page.setInputFiles('input[name="bad"]', files.bad);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("status")).toHaveText("Verified: everything checked matches.");
  await expect(page.getByTestId("check-signature")).toContainText("✓");
  await expect(page.getByTestId("check-good.csv")).toContainText(test.info().project.name === "js" ? "hashed in your browser" : "hashed on the server");

  fs.appendFileSync(files.good, "9995550100\n");
  await page.goto("/verify");
  await page.setInputFiles('input[name="certificate"]', files.cert);
  await page.setInputFiles('input[name="good"]', files.good);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("status")).toHaveText("Does not match: good.csv.");
  await expect(page.getByTestId("check-good.csv")).toContainText("good.csv does not match");

  const tampered = path.join(dir, "tampered.json");
  fs.writeFileSync(tampered, fs.readFileSync(files.cert, "utf8").replace(/"good": \d+/, '"good": 999'));
  await page.goto("/verify");
  await page.setInputFiles('input[name="certificate"]', tampered);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("status")).toContainText("Does not match: ");
  await expect(page.getByTestId("check-signature")).toContainText("✗");
});

test("the certificate and verify screens fit a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/verify");
  await expect(page.getByRole("heading", { name: "Verify a Scrub Certificate" })).toBeVisible();
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cert-e2e-"));
  await purgeAndDownload(page, dir);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.getByTestId("certificate-html").click();
  await expect(page.getByRole("heading", { name: "Scrub Certificate" })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
});
