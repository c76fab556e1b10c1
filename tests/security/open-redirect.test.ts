import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/utils/safe-redirect-path";
import { action as sidebarAction } from "~/routes/resources.sidebar";
import { makeRequest, testContext } from "../setup/request";

/*
 * Open redirect (issue #13 item 4): every redirect target from input goes through safeRedirectPath, which
 * accepts only what the URL parser (the browser's own) keeps on this origin. A browser resolves the
 * Location we send against our origin exactly like `new URL(location, origin)`, so that is the oracle.
 */
const ORIGIN = "https://app.example";
const HOSTILE = [
  "//evil.example",
  "///evil.example",
  "////evil.example",
  "/\\evil.example",
  "/\\/evil.example",
  "\\\\evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/ /evil.example",
  " //evil.example",
  "\t//evil.example",
  "/.//evil.example",
  "/./\\evil.example",
  "/..//evil.example",
  "/a/..//evil.example",
  "%2F%2Fevil.example",
  "https://evil.example",
  "http:evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,x",
  "/\u0000/evil.example",
  "/\u0008/evil.example",
  "/\u007f/evil.example",
  "/%0A/evil.example",
  "/%0D%0ALocation:%20https://evil.example",
  "/\u3000/evil.example",
  "/\uff0f/evil.example",
  "\u2028//evil.example",
  "",
  "dashboard",
  "?x=1",
  "#top",
  "/".padEnd(5000, "a"),
];

describe("safeRedirectPath", () => {
  it("never yields a target a browser would follow off this origin, and never throws", () => {
    for (const to of HOSTILE) {
      const out = safeRedirectPath(to, "/dashboard");
      expect(new URL(out, ORIGIN).origin, JSON.stringify(to)).toBe(ORIGIN);
      expect(out.startsWith("/") && !out.startsWith("//") && !out.startsWith("/\\"), JSON.stringify(to)).toBe(true);
      // Valid as a header value: no control characters survive.
      expect(() => new Headers({ Location: out }), JSON.stringify(to)).not.toThrow();
      expect(out, JSON.stringify(to)).not.toMatch(/[\u0000-\u001f\u007f]/);
    }
  });

  it("keeps ordinary paths with their query and fragment", () => {
    expect(safeRedirectPath("/containers?page=2#list")).toBe("/containers?page=2#list");
    expect(safeRedirectPath("/purge?step=5&mode=csv")).toBe("/purge?step=5&mode=csv");
    expect(safeRedirectPath("/%09/evil.example")).toBe("/%09/evil.example");
    expect(safeRedirectPath(null, "/x")).toBe("/x");
  });
});

describe("routes that redirect to input", () => {
  it("the sidebar toggle answers a same-origin redirect (never 500) for every hostile redirectTo", async () => {
    for (const redirectTo of HOSTILE) {
      const res = (await sidebarAction({
        request: makeRequest("/resources/sidebar", { form: { expanded: "true", redirectTo } }),
        context: testContext,
        params: {},
      })) as Response;
      expect(res.status, JSON.stringify(redirectTo)).toBe(302);
      expect(new URL(res.headers.get("Location") ?? "", ORIGIN).origin, JSON.stringify(redirectTo)).toBe(ORIGIN);
    }
  });
});
