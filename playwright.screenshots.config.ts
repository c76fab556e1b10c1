import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

// `npm run screenshots`: PNGs of every screen at 1280 and 390 px (JavaScript on) into screenshots/ (git-ignored).
export default defineConfig({
  ...base,
  testDir: "tests/screenshots",
  testMatch: "**/*.shot.ts",
  timeout: 300_000,
  // the demo admin's stored sign-in (tests/e2e/auth.setup.ts) that seedAdminData starts from
  projects: [
    { name: "setup", testDir: "tests/e2e", testMatch: "auth.setup.ts", use: { javaScriptEnabled: true } },
    { name: "js", dependencies: ["setup"], use: { javaScriptEnabled: true } },
  ],
});
