import { test as base, expect, type BrowserContext } from "@playwright/test";

export { expect };
export type { BrowserContext, Page } from "@playwright/test";

/**
 * Every spec imports `test` from here: a test fails on any uncaught page error or browser console error
 * (a client crash, a hydration mismatch, a CSP violation, a missing script or favicon), in every page of
 * every context it opens. One thing is not an error: a page, a Remix data request or one of the app's JSON
 * endpoints (the upload XHR's validation answer) answering 4xx on purpose (Access Denied is a 403, an
 * unknown address a 404) makes Chromium log "Failed to load resource"; the test asserts what the page
 * shows. A 4xx for anything else (a script, the favicon) and every 5xx stay errors. A test that expects a specific console error names it with
 * `test.use({ expectedConsoleErrors: [/.../] })`.
 */
export const test = base.extend<{ expectedConsoleErrors: RegExp[]; browserErrors: string[] }>({
  expectedConsoleErrors: [[], { option: true }],
  browserErrors: [
    async ({ context, browser, expectedConsoleErrors }, use) => {
      const errors: string[] = [];
      const watch = (ctx: BrowserContext) => {
        const answeredOnPurpose = new Set<string>();
        ctx.on("response", (res) => {
          const req = res.request();
          const isJsonAnswer = (res.headers()["content-type"] ?? "").startsWith("application/json");
          const isPageOrData = req.isNavigationRequest() || new URL(res.url()).pathname.endsWith(".data") || isJsonAnswer;
          if (isPageOrData && res.status() >= 400 && res.status() < 500) answeredOnPurpose.add(res.url());
        });
        ctx.on("weberror", (e) => errors.push(`page error: ${e.error().stack ?? e.error().message}`));
        ctx.on("console", (msg) => {
          if (msg.type() !== "error") return;
          const text = msg.text();
          if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(text) && answeredOnPurpose.has(msg.location().url)) return;
          if (expectedConsoleErrors.some((re) => re.test(text))) return;
          errors.push(`console error: ${text} (${msg.location().url})`);
        });
      };
      watch(context);
      // Contexts a test opens itself (a second user) are watched too.
      const newContext = browser.newContext;
      browser.newContext = async (...args) => {
        const ctx = await newContext.apply(browser, args);
        watch(ctx);
        return ctx;
      };
      try {
        await use(errors);
      } finally {
        browser.newContext = newContext;
      }
      expect(errors, "browser errors during the test").toEqual([]);
    },
    { auto: true },
  ],
});
