import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader } from "~/routes/api.v1.openapi[.json]";

/** The OpenAPI document's calling_rules_version points at /rules on APP_URL (the loader reads no request at all; decision 178). */
describe("OpenAPI: calling_rules_version says see /rules", () => {
  const before = process.env.APP_URL;
  beforeAll(() => {
    process.env.APP_URL = "https://app.example.com/";
  });
  afterAll(() => {
    if (before === undefined) delete process.env.APP_URL;
    else process.env.APP_URL = before;
  });

  it("with an absolute link built from APP_URL", async () => {
    const res = loader();
    const doc = await res.json();
    const texts = JSON.stringify(doc);
    const descriptions = [...texts.matchAll(/"description":"(CALLING_RULES_VERSION[^"]*)"/g)].map((m) => m[1]);
    expect(descriptions.length).toBe(2);
    for (const d of descriptions) expect(d).toContain("see /rules (https://app.example.com/rules)");
  });
});
