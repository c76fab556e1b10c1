import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "../e2e/fixtures";
import { adminScreens, CUSTOMER_SCREENS, PUBLIC_SCREENS, seedAdminData, signInNewCustomer, type Screen } from "../e2e/screens";

const OUT = path.resolve(process.env.SCREENSHOTS_DIR ?? "screenshots");
const WIDTHS = [1280, 390];

async function shoot(page: Page, group: string, screens: Screen[]) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const screen of screens) {
      await page.goto(screen.path);
      await expect(page.getByText(screen.expectText).filter({ visible: true }).first()).toBeVisible();
      const file = path.join(OUT, `${width}`, `${group}-${screen.name}.png`);
      await page.screenshot({ path: file, fullPage: true });
    }
  }
}

test.beforeAll(() => fs.rmSync(OUT, { recursive: true, force: true }));

test("public screens", async ({ page }) => {
  await shoot(page, "public", PUBLIC_SCREENS);
});

test("a new customer's screens", async ({ page }) => {
  await signInNewCustomer(page, true);
  await shoot(page, "customer", CUSTOMER_SCREENS);
});

test("an admin's screens with data", async ({ page }) => {
  const seeded = await seedAdminData(page);
  await shoot(page, "admin", adminScreens(seeded));
});
