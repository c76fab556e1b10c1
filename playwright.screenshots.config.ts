import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

// `npm run screenshots`: PNGs of every screen at 1280 and 390 px (JavaScript on) into screenshots/ (git-ignored).
export default defineConfig({
  ...base,
  testDir: "tests/screenshots",
  testMatch: "**/*.shot.ts",
  timeout: 300_000,
  projects: [{ name: "js", use: { javaScriptEnabled: true } }],
});
