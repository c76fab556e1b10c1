import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upload-test-"));
process.env.DATA_DIR = dataDir;
const { readUploadForm } = await import("./upload-form.server");

const user = (n: number) => `${String(n).repeat(8)}-1111-4111-8111-111111111111`;
const filesOf = (userId: string) => {
  const dir = path.join(dataDir, "uploads", userId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

function multipart(fields: Record<string, string | File>): Request {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return new Request("http://localhost/x", { method: "POST", body: fd });
}

describe("readUploadForm", () => {
  it("streams a file to disk", async () => {
    const req = multipart({ name: "Box", file: new File(["Phone\n2015552123\n3125552199"], "nums.csv", { type: "text/csv" }) });
    const form = await readUploadForm(req, { userId: user(1) });
    expect(form.fields.get("name")).toBe("Box");
    const f = form.upload;
    expect(f).toMatchObject({ originalName: "nums.csv", bytes: 27 });
    expect(fs.readFileSync(f!.path, "utf8")).toBe("Phone\n2015552123\n3125552199");
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
});

/** A multipart body written by hand, so the part header is exactly what a browser or client sent. */
function rawMultipart(disposition: string, content = "Phone\n2125552142\n"): Request {
  const b = "----b0undary";
  const body = Buffer.concat([
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n`),
    Buffer.from(`--${b}\r\nContent-Disposition: ${disposition}\r\nContent-Type: text/csv\r\n\r\n`, "utf8"),
    Buffer.from(content),
    Buffer.from(`\r\n--${b}--\r\n`),
  ]);
  return new Request("http://localhost/x", { method: "POST", body, headers: { "Content-Type": `multipart/form-data; boundary=${b}` } });
}

describe("file names (RFC 7578 / RFC 6266)", () => {
  it("reads any name a browser sends: ; = quotes, non-ASCII, spaces", async () => {
    // Browsers send the name quoted, UTF-8 as is, and escape " as %22 (Chrome, Firefox) or \" (RFC 2616 quoting).
    const cases: [string, string][] = [
      ['form-data; name="file"; filename="leads;2024.csv"', "leads;2024.csv"],
      ['form-data; name="file"; filename="Q1=final.csv"', "Q1=final.csv"],
      ['form-data; name="file"; filename="a; filename=b.csv"', "a; filename=b.csv"],
      ['form-data; name="file"; filename="say \\"hi\\".csv"', 'say "hi".csv'],
      ['form-data; name="file"; filename="say %22hi%22.csv"', 'say "hi".csv'],
      ['form-data; name="file"; filename="it\'s.csv"', "it's.csv"],
      ['form-data; name="file"; filename="Клиенты 2026.csv"', "Клиенты 2026.csv"],
      ["form-data; name=\"file\"; filename*=UTF-8''Jos%C3%A9%3B%20list.csv", "José; list.csv"],
      ['form-data; filename="x;y.csv"; name="file"', "x;y.csv"],
    ];
    for (const [disposition, expected] of cases) {
      const form = await readUploadForm(rawMultipart(disposition), { userId: user(6) });
      expect(form.malformed, disposition).toBe(false);
      expect(form.fields.get("intent")).toBe("upload");
      expect(form.upload?.originalName, disposition).toBe(expected);
      expect(fs.readFileSync(form.upload!.path, "utf8")).toBe("Phone\n2125552142\n");
      await form.discard();
    }
    expect(filesOf(user(6))).toEqual([]);
  });

  it("prefers filename* over filename and keeps only the base name", async () => {
    const form = await readUploadForm(rawMultipart('form-data; name="file"; filename="fallback.csv"; filename*=utf-8\'\'%E2%82%AC%20report.csv'), {
      userId: user(7),
    });
    expect(form.upload?.originalName).toBe("€ report.csv");
    await form.discard();
    const dirs = await readUploadForm(rawMultipart('form-data; name="file"; filename="C:\\\\Users\\\\me\\\\list.csv"'), { userId: user(7) });
    expect(dirs.upload?.originalName).toBe("list.csv");
    await dirs.discard();
  });

  it("answers a body cut off in the middle as malformed and keeps nothing", async () => {
    const whole = await rawMultipart('form-data; name="file"; filename="cut.csv"', "Phone\n" + "2125552142\n".repeat(100)).arrayBuffer();
    const cut = new Request("http://localhost/x", {
      method: "POST",
      body: new Uint8Array(whole).slice(0, 400),
      headers: { "Content-Type": "multipart/form-data; boundary=----b0undary" },
    });
    const form = await readUploadForm(cut, { userId: user(8) });
    expect(form.malformed).toBe(true);
    expect(form.upload).toBeNull();
    expect(filesOf(user(8)).filter((n) => !n.endsWith(".part"))).toEqual([]);
  });
});
