import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { categorySchema, createContainerSchema, dncLoadSchema } from "./list-forms";

function fd(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

describe("container forms", () => {
  it("reports every problem at once", () => {
    const s = parseWithZod(fd({ intent: "create-container", method: "manual", numbers: "123" }), {
      schema: createContainerSchema(() => false),
    });
    expect(s.status).toBe("error");
    const err = s.reply().error!;
    expect(err.name).toEqual(["Container name is required"]);
    expect(err.categoryId).toEqual(["Please select a category"]);
    expect(err.numbers).toEqual(["The following numbers are invalid (must be exactly 10 digits with no alphabets): 123"]);
  });

  it("needs a file in csv mode", () => {
    const s = parseWithZod(fd({ intent: "create-container", name: "A", categoryId: "c", method: "csv" }), {
      schema: createContainerSchema(() => false),
    });
    expect(s.reply().error?.file).toEqual(["You must upload a CSV file with phone numbers."]);
    const ok = parseWithZod(fd({ intent: "create-container", name: "A", categoryId: "c", method: "csv", file: "upload:x" }), {
      schema: createContainerSchema(() => true),
    });
    expect(ok.status).toBe("success");
  });

  it("needs a category name", () => {
    const s = parseWithZod(fd({ intent: "create-category", name: "  " }), { schema: categorySchema });
    expect(s.reply().error?.name).toEqual(["Category name is required"]);
  });

  it("validates DNC loads the same way", () => {
    const s = parseWithZod(fd({ intent: "load", type: "0", mode: "add", method: "manual", numbers: "" }), {
      schema: dncLoadSchema(() => false),
    });
    expect(s.reply().error?.numbers).toEqual(["You must enter at least one valid 10-digit phone number."]);
    // types 0-14 are the registry's lists (litigation, the federal list, the twelve state lists, Canada's): 15 is none
    const bad = parseWithZod(fd({ intent: "load", type: "15", mode: "add", method: "manual", numbers: "2015552123" }), {
      schema: dncLoadSchema(() => false),
    });
    expect(bad.status).toBe("error");
  });
});
