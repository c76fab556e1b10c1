import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upload-test-"));
process.env.DATA_DIR = dataDir;
const { readUploadForm } = await import("./upload-form.server");
const { RowCounter } = await import("./row-counter");

const user = (n: number) => `${String(n).repeat(8)}-1111-4111-8111-111111111111`;
const filesOf = (userId: string) => {
  const dir = path.join(dataDir, "uploads", userId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

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
    const form = await readUploadForm(req, { userId: user(1) });
    expect(form.fields.get("name")).toBe("Box");
    const f = form.upload;
    expect(f).toMatchObject({ originalName: "nums.csv", bytes: 27, lines: 2 });
    expect(fs.readFileSync(f!.path, "utf8")).toBe("Phone\n2015550123\n3125550199");
    expect(form.fields.get("file")).toBeNull();
    await form.discard();
    expect(fs.existsSync(f!.path)).toBe(false);
  });

  it("keeps nothing of a file over the cap", async () => {
    const req = multipart({ file: new File(["x".repeat(5000)], "big.csv"), after: "still read" });
    const form = await readUploadForm(req, { userId: user(2), maxBytes: 1000 });
    expect(form.tooLarge).toBe(1000);
    expect(form.upload).toBeNull();
    expect(form.fields.get("after")).toBe("still read");
    expect(filesOf(user(2))).toEqual([]);
  });

  it("ignores an empty file input and files in other fields", async () => {
    const req = multipart({ file: new File([], ""), other: new File(["abc"], "o.csv") });
    const form = await readUploadForm(req, { userId: user(3) });
    expect(form.upload).toBeNull();
    expect(form.fields.get("file")).toBeNull();
    expect(filesOf(user(3))).toEqual([]);
  });

  it("flags an oversized text field and reads url-encoded forms too", async () => {
    const big = await readUploadForm(multipart({ numbers: "1".repeat(2000) }), { userId: user(4), maxTextBytes: 100 });
    expect(big.textTooLarge).toBe(true);
    const plain = await readUploadForm(
      new Request("http://localhost/x", {
        method: "POST",
        body: new URLSearchParams({ a: "1" }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
      { userId: user(4) },
    );
    expect(plain.fields.get("a")).toBe("1");
  });

  it("answers a broken multipart body with an empty form", async () => {
    const req = new Request("http://localhost/x", {
      method: "POST",
      body: "garbage",
      headers: { "Content-Type": "multipart/form-data" },
    });
    const form = await readUploadForm(req, { userId: user(5) });
    expect([...form.fields.keys()]).toEqual([]);
    expect(form.malformed).toBe(true);
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
