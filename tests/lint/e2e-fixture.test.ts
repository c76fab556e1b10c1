import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const e2eDir = path.resolve(import.meta.dirname, "../e2e");

it("every Playwright spec takes `test` from the shared fixture that fails on browser errors", () => {
  const specs = fs.readdirSync(e2eDir).filter((f) => f.endsWith(".spec.ts"));
  expect(specs.length).toBeGreaterThan(5);
  const offenders = specs.filter((f) => {
    const source = fs.readFileSync(path.join(e2eDir, f), "utf8");
    return /from\s+["']@playwright\/test["']/.test(source) || !/import\s*\{[^}]*\btest\b[^}]*\}\s*from\s*["']\.\/fixtures["']/.test(source);
  });
  expect(offenders).toEqual([]);
});
