import { describe, expect, it } from "vitest";
import { useAppTestDb } from "../setup/db";
import { readVerifyForm, verifyUpload, VERIFY_FORM_LIMITS, VERIFY_HASH_BUDGET_SPENT, VERIFY_LIMITS, VERIFY_RATE_LIMITED } from "~/proof/verify-form.server";
import { tooManyFieldsMessage } from "~/intake/upload-form.server";

/*
 * Anonymous /verify (issue #26 item 6): it hashed up to 4 × 500 MiB per request with no limit. Now each address
 * has 30 checks an hour and 1 GiB of server-side hashing an hour, taken before the body is read, and one request
 * hashes at most the upload cap for all its files together.
 */
const { handle } = useAppTestDb();
const db = () => handle().db;

function form(files: Record<string, Buffer>): Request {
  const fd = new FormData();
  fd.append("certificate", new Blob(["{}"]), "certificate.json");
  for (const [name, data] of Object.entries(files)) fd.append(name, new Blob([new Uint8Array(data)]), `${name}.csv`);
  return new Request("http://localhost/verify", { method: "POST", body: fd });
}

async function withLength(req: Request): Promise<Request> {
  const body = Buffer.from(await req.arrayBuffer());
  const headers = new Headers(req.headers);
  headers.set("Content-Length", String(body.length));
  return new Request(req.url, { method: "POST", headers, body });
}

describe("/verify limits per client", () => {
  it("answers 429 after 30 checks an hour from one address; other addresses are not affected", async () => {
    const ip = "198.51.100.7";
    const statuses: number[] = [];
    for (let i = 0; i < VERIFY_LIMITS.perHour + 2; i++) {
      const out = await verifyUpload(db(), await withLength(form({})), 10 * 1024 * 1024, ip);
      statuses.push(out.error === VERIFY_RATE_LIMITED ? 429 : 200);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(VERIFY_LIMITS.perHour);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    const other = await verifyUpload(db(), await withLength(form({})), 10 * 1024 * 1024, "198.51.100.8");
    expect(other.error).not.toBe(VERIFY_RATE_LIMITED);
  });

  it("takes the bytes a request may hash from the address's hourly budget before reading it", async () => {
    const ip = "198.51.100.9";
    // 1 GiB an hour: with a 300 MiB cap per request and a body declaring 400 MiB, three requests fit (900 MiB), the fourth not
    const declared = (n: number) => {
      const headers = new Headers({ "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(n) });
      return new Request("http://localhost/verify", { method: "POST", headers, body: "--x--\r\n" });
    };
    const outcomes: (string | null)[] = [];
    for (let i = 0; i < 4; i++) outcomes.push((await verifyUpload(db(), declared(400 * 1024 * 1024), 300 * 1024 * 1024, ip)).error);
    expect(outcomes.slice(0, 3).every((e) => e !== VERIFY_HASH_BUDGET_SPENT)).toBe(true);
    expect(outcomes[3]).toBe(VERIFY_HASH_BUDGET_SPENT);
    // a small request (a certificate and browser-made digests) still passes
    const small = await verifyUpload(db(), await withLength(form({})), 300 * 1024 * 1024, ip);
    expect(small.error).not.toBe(VERIFY_HASH_BUDGET_SPENT);
  });

  it("hashes at most the cap for all files of one request together", async () => {
    const half = Buffer.alloc(600 * 1024, 0x42);
    const one = await readVerifyForm(await withLength(form({ input: half })), 1024 * 1024);
    expect(one.error).toBeNull();
    expect(one.digests.input).toMatch(/^[0-9a-f]{64}$/);
    // two files of 600 KiB each pass one by one, not together
    const two = await readVerifyForm(await withLength(form({ input: half, good: half })), 1024 * 1024);
    expect(two.error).toBe("The files are larger than 1 MB together: check them with npm run verify, or with JavaScript on (hashed in your browser).");
  });
});

describe("/verify's field-count limit names itself (issue #49)", () => {
  it("a form with more than 20 fields is refused with the limit, not read as if it were whole", async () => {
    const fd = new FormData();
    for (let i = 0; i < 5001; i++) fd.append("at", "x");
    fd.append("certificate", new Blob(["{}"]), "certificate.json");
    const out = await readVerifyForm(new Request("http://localhost/verify", { method: "POST", body: fd }), 1024 * 1024);
    expect(out.error).toBe(tooManyFieldsMessage("fields", VERIFY_FORM_LIMITS.fields));
    expect(out.error).toContain("the limit is 20");
  });
});
