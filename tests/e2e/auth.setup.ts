import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { adminStatePath, DEMO_ADMIN, signIn } from "./helpers";

/*
 * The setup project (decision 141): the demo admin signs in once through the login form, and the session is
 * stored for the tests that only need to start signed in as the admin (`signInAsAdmin`). The form itself is
 * still exercised by session.spec.ts and by every test that signs a customer in or out.
 */
test("the demo admin signs in through the form; the session is stored for the tests that start signed in", async ({ page }) => {
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  fs.mkdirSync(path.dirname(adminStatePath()), { recursive: true });
  await page.context().storageState({ path: adminStatePath() });
});
