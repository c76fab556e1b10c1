import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upload-test-"));
process.env.DATA_DIR = dataDir;
const { readUploadForm, uploadsDir, RowCounter } = await import("./list-upload.server");

function countRows(...chunks: string[]): number {
  const c = new RowCounter();
  for (const ch of chunks) c.push(new TextEncoder().encode(ch));
  return c.count();
}

function multipart(fields: Record<string, string | File>): Request {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return new Request("http://localhost/x", { method: "POST", body: fd });
}

describe("readUploadForm", () => {
  it("streams a file to disk and counts its lines", async () => {
    const req = multipart({ name: "Box", file: new File(["Phone\n2015550123\n3125550199"], "nums.csv", { type: "text/csv" }) });
    const form = await readUploadForm(req, { area: "t1", fileFields: ["file"] });
    expect(form.formData.get("name")).toBe("Box");
    const f = form.files.get("file");
    expect(f).toMatchObject({ fileName: "nums.csv", bytes: 27, lines: 2 });
    expect(fs.readFileSync(f!.path, "utf8")).toBe("Phone\n2015550123\n3125550199");
    expect(String(form.formData.get("file"))).toMatch(/^upload:/);
    await form.discard();
    expect(fs.existsSync(f!.path)).toBe(false);
  });

  it("keeps nothing of a file over the cap", async () => {
    const req = multipart({ file: new File(["x".repeat(5000)], "big.csv"), after: "still read" });
    const form = await readUploadForm(req, { area: "t2", fileFields: ["file"], maxBytes: 1000 });
    expect(form.tooLarge).toBe(true);
    expect(form.files.size).toBe(0);
    expect(form.formData.get("after")).toBe("still read");
    expect(fs.readdirSync(uploadsDir("t2"))).toEqual([]);
  });

  it("ignores an empty file input and files in other fields", async () => {
    const req = multipart({ file: new File([], ""), other: new File(["abc"], "o.csv") });
    const form = await readUploadForm(req, { area: "t3", fileFields: ["file"] });
    expect(form.files.size).toBe(0);
    expect(form.formData.get("file")).toBeNull();
    expect(fs.readdirSync(uploadsDir("t3"))).toEqual([]);
  });

  it("flags an oversized text field and reads url-encoded forms too", async () => {
    const big = await readUploadForm(multipart({ numbers: "1".repeat(2000) }), { area: "t4", fileFields: ["file"], maxTextBytes: 100 });
    expect(big.textTooLarge).toBe(true);
    const plain = await readUploadForm(
      new Request("http://localhost/x", {
        method: "POST",
        body: new URLSearchParams({ a: "1" }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
      { area: "t4", fileFields: ["file"] },
    );
    expect(plain.formData.get("a")).toBe("1");
  });

  it("answers a broken multipart body with an empty form", async () => {
    const req = new Request("http://localhost/x", {
      method: "POST",
      body: "garbage",
      headers: { "Content-Type": "multipart/form-data" },
    });
    const form = await readUploadForm(req, { area: "t5", fileFields: ["file"] });
    expect([...form.formData.keys()]).toEqual([]);
  });

  it("counts the numbers a file can hold: non-empty lines, less a header without digits", () => {
    expect(countRows("Phone\n2015550123\n3125550199\n")).toBe(2);
    expect(countRows("Phone\r\n2015550123\r\n\r\n\r\n3125550199")).toBe(2);
    expect(countRows("2015550123\n3125550199\n")).toBe(2);
    expect(countRows("Pho", "ne\n201555", "0123\n\n")).toBe(1);
    expect(countRows("Phone")).toBe(0);
    expect(countRows("")).toBe(0);
    expect(countRows("\n\n  \n2015550123")).toBe(1);
  });
});
