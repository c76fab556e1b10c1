import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "uploads-test-"));
process.env.DATA_DIR = dataDir;

import { readUploadForm } from "./upload-form.server";
import {
  cleanOriginalName,
  cleanPartialUploads,
  getUpload,
  PART_QUIET_MS,
  saveTypedNumbers,
  storeUploadStream,
  sweepStaleUploads,
  uploadsRoot,
  UploadTooLargeError,
} from "./upload-store.server";

const userA = "11111111-1111-4111-8111-111111111111";
const userB = "22222222-2222-4222-8222-222222222222";

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** A multipart request whose body arrives in small chunks (as from a network), never all at once. */
function chunkedRequest(fields: [string, string][], file?: { name: string; content: Buffer }): Request {
  const fd = new FormData();
  for (const [k, v] of fields) fd.append(k, v);
  if (file) fd.append("file", new Blob([new Uint8Array(file.content)]), file.name);
  const encoded = new Request("http://x/", { method: "POST", body: fd });
  const contentType = encoded.headers.get("Content-Type")!;
  const body = encoded.body!;
  return new Request("http://x/", { method: "POST", body, headers: { "Content-Type": contentType }, duplex: "half" } as RequestInit);
}

function filesOf(userId: string): string[] {
  const dir = path.join(dataDir, "uploads", userId);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

describe("readUploadForm into the upload store", () => {
  it("streams the file to the user's folder and gives it an upload id", async () => {
    const content = Buffer.from("Phone\n" + "2025552101\n".repeat(20_000));
    const form = await readUploadForm(chunkedRequest([["intent", "upload"]], { name: "../../evil/leads.csv", content }), {
      userId: userA,
      maxBytes: 1_000_000,
    });
    expect(form.fields.get("intent")).toBe("upload");
    const id = form.upload!.id;
    expect(id).toMatch(/^[a-f0-9]{32}$/);
    const upload = await getUpload(userA, id);
    expect(upload).toMatchObject({ id, userId: userA, originalName: "leads.csv", bytes: content.length, manual: false });
    expect(fs.readFileSync(upload!.path).equals(content)).toBe(true);
    expect(path.dirname(upload!.path)).toBe(path.join(dataDir, "uploads", userA));
    // The id means nothing for another user.
    expect(await getUpload(userB, id)).toBeUndefined();
    expect(await getUpload(userA, "../" + id)).toBeUndefined();
  });

  it("stops at the cap with a message naming the limit and leaves no file behind", async () => {
    const before = filesOf(userB);
    const content = Buffer.alloc(3 * 1024 * 1024, "1");
    const form = await readUploadForm(chunkedRequest([["intent", "upload"]], { name: "big.csv", content }), { userId: userB, maxBytes: 1024 * 1024 });
    expect(form.tooLarge).toBe(1024 * 1024);
    expect(form.upload).toBeNull();
    expect(new UploadTooLargeError(form.tooLarge!).message).toBe("File is too large. The limit is 1 MB.");
    expect(new UploadTooLargeError(500 * 1024 * 1024).message).toBe("File is too large. The limit is 500 MB.");
    expect(filesOf(userB)).toEqual(before);
  });

  it("ignores an empty file input (no file chosen)", async () => {
    const fd = new FormData();
    fd.append("intent", "upload");
    fd.append("file", new Blob([]), "");
    const before = filesOf(userA);
    const form = await readUploadForm(new Request("http://x/", { method: "POST", body: fd }), { userId: userA });
    // No upload (absent or empty), and nothing written.
    expect(form.upload).toBeNull();
    expect(form.fields.get("file")).toBeNull();
    expect(filesOf(userA)).toEqual(before);
  });
});

describe("readUploadForm and text fields", () => {
  it("ignores a text field named like the file field (only a streamed file gives an upload id)", async () => {
    const fd = new FormData();
    fd.append("file", "0123456789abcdef0123456789abcdef");
    fd.append("intent", "upload");
    const form = await readUploadForm(new Request("http://x/", { method: "POST", body: fd }), { userId: userA });
    expect(form.upload).toBeNull();
    expect(form.fields.get("file")).toBeNull();
    expect(form.fields.get("intent")).toBe("upload");
  });
});

describe("saveTypedNumbers", () => {
  it("writes typed numbers as a one-column CSV", async () => {
    const upload = await saveTypedNumbers(userA, ["2025552101", "3105552199"]);
    expect(fs.readFileSync(upload.path, "utf8")).toBe("Number\n2025552101\n3105552199\n");
    expect((await getUpload(userA, upload.id))?.manual).toBe(true);
  });
});

describe("saveTypedNumbers with a submission id", () => {
  it("returns the first upload for a resent form, and a new one when the numbers differ", async () => {
    const sid = "abcdefabcdefabcdefabcdefabcdef01";
    const [a, b] = await Promise.all([saveTypedNumbers(userA, ["2025552101"], { id: sid }), saveTypedNumbers(userA, ["2025552101"], { id: sid })]);
    expect(a.id).toBe(sid);
    expect(b.id).toBe(sid);
    const other = await saveTypedNumbers(userA, ["3105552199"], { id: sid });
    expect(other.id).not.toBe(sid);
    expect(fs.readFileSync(other.path, "utf8")).toBe("Number\n3105552199\n");
    expect(fs.readFileSync(a.path, "utf8")).toBe("Number\n2025552101\n");
  });
});

describe("cleanOriginalName", () => {
  it("keeps only a bounded base name without control characters", () => {
    expect(cleanOriginalName("C:\\x\\leads.csv")).toBe("leads.csv");
    expect(cleanOriginalName("a\u0000b\r\n.csv")).toBe("ab.csv");
    expect(cleanOriginalName("")).toBe("upload.csv");
    expect(cleanOriginalName("x".repeat(300))).toHaveLength(200);
  });
});

describe("sweepStaleUploads", () => {
  it("removes every user's uploads older than a day unless a running job reads them, and crashed .part files", async () => {
    const user = "33333333-3333-4333-8333-333333333333";
    const old = await saveTypedNumbers(user, ["2025552101"]);
    const busy = await saveTypedNumbers(user, ["2025552102"]);
    const fresh = await saveTypedNumbers(user, ["2025552103"]);
    const part = path.join(path.dirname(old.path), "0123456789abcdef0123456789abcdef.csv.part");
    fs.writeFileSync(part, "half");
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    for (const p of [old.path, busy.path, part]) fs.utimesSync(p, twoDaysAgo, twoDaysAgo);
    const asked: string[][] = [];
    const removed = await sweepStaleUploads(async (paths) => {
      asked.push(paths);
      return new Set([busy.path]);
    });
    expect(removed).toEqual([old.path]);
    expect(asked.map((a) => a.sort())).toEqual([[busy.path, old.path].sort()]);
    expect(await getUpload(user, old.id)).toBeUndefined();
    expect(await getUpload(user, busy.id)).toBeDefined();
    expect(await getUpload(user, fresh.id)).toBeDefined();
    expect(fs.existsSync(part)).toBe(false);
  });
});

describe("a workbook's decoded sheets beside its upload (issue #26)", () => {
  it("are removed with the upload, and the sweep removes any left without their upload", async () => {
    const user = "44444444-4444-4444-8444-444444444444";
    const kept = await saveTypedNumbers(user, ["2025552104"]);
    const gone = await saveTypedNumbers(user, ["2025552105"]);
    const keptSheet = `${kept.path}.0123456789abcdef.decoded`;
    const goneSheet = `${gone.path}.0123456789abcdef.decoded`;
    const orphan = path.join(path.dirname(kept.path), "fedcba9876543210fedcba9876543210.csv.0123456789abcdef.decoded");
    for (const f of [keptSheet, goneSheet, orphan]) fs.writeFileSync(f, "Phone\n2025552104\n");
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    for (const p of [gone.path, goneSheet, orphan]) fs.utimesSync(p, twoDaysAgo, twoDaysAgo);
    // (the busy upload of the test above is still old and still in use)
    expect(await sweepStaleUploads(async (paths) => new Set(paths.filter((p) => !p.includes(user))))).toEqual([gone.path]);
    expect([fs.existsSync(goneSheet), fs.existsSync(orphan), fs.existsSync(keptSheet)]).toEqual([false, false, true]);
  });
});

describe("partial uploads (.part) left by a stopped process (issue #49)", () => {
  const user = "44444444-4444-4444-8444-444444444444";
  const dir = () => path.join(uploadsRoot(), user);
  const host = os.hostname().replace(/[^A-Za-z0-9.-]/g, "_");
  const write = (name: string, ageMs = 0) => {
    fs.mkdirSync(dir(), { recursive: true });
    const p = path.join(dir(), name);
    fs.writeFileSync(p, "half of 300 MB");
    const t = new Date(Date.now() - ageMs);
    fs.utimesSync(p, t, t);
    return p;
  };
  /** A pid no process has: a child that has exited. */
  const deadPid = () => {
    const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    return Number(r.stdout.toString());
  };

  it("the one process of an embedded DATA_DIR removes every .part at start, however fresh", async () => {
    const untagged = write("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.csv.part");
    const ours = write(`bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.csv.${host}~${process.pid}.part`);
    const decode = write(`cccccccccccccccccccccccccccccccc.csv.Sheet1.decoded.${process.pid}-0a1b2c3d.part`);
    const kept = await saveTypedNumbers(user, ["2025552109"]);
    const removed = await cleanPartialUploads({ atStart: true, shared: false });
    expect(removed.sort()).toEqual([untagged, ours, decode].sort());
    for (const p of [untagged, ours, decode]) expect(fs.existsSync(p)).toBe(false);
    expect(await getUpload(user, kept.id)).toBeDefined();
  });

  it("a shared DATA_DIR at start: this host's dead writers' and this pid's go; a live writer's and fresh untagged ones stay until quiet", async () => {
    const dead = write(`dddddddddddddddddddddddddddddddd.csv.${host}~${deadPid()}.part`);
    const ownPid = write(`eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee.csv.${host}~${process.pid}.part`);
    const live = write(`ffffffffffffffffffffffffffffffff.csv.${host}~${process.ppid}.part`);
    const otherHost = write("11111111111111111111111111111111.csv.other-host~4242.part");
    const untaggedFresh = write("22222222222222222222222222222222.csv.part");
    const untaggedQuiet = write("33333333333333333333333333333333.csv.part", PART_QUIET_MS + 60_000);
    const removed = await cleanPartialUploads({ atStart: true, shared: true });
    expect(removed.sort()).toEqual([dead, ownPid, untaggedQuiet].sort());
    for (const p of [live, otherHost, untaggedFresh]) expect(fs.existsSync(p)).toBe(true);
    // while running (the hourly sweep), this process's own .part is being written: it stays
    const writing = write(`44444444444444444444444444444444.csv.${host}~${process.pid}.part`);
    expect(await cleanPartialUploads({ atStart: false, shared: true })).toEqual([]);
    expect(fs.existsSync(writing)).toBe(true);
    for (const p of [live, otherHost, untaggedFresh, writing]) fs.rmSync(p);
  });

  it("an upload streams into a .part named by its writer, renamed into place when complete", async () => {
    let seen: string[] = [];
    async function* slow() {
      yield Buffer.from("Number\n");
      const mine = () => fs.readdirSync(dir()).filter((n) => n.includes(`~${process.pid}.`));
      for (let i = 0; i < 100 && !mine().length; i++) await new Promise((r) => setTimeout(r, 10)); // the stream opens its file
      seen = fs.readdirSync(dir()).filter((n) => n.endsWith(".part") && !/^[0-9a-f]{32}\.csv\.part$/.test(n) && n.includes(`~${process.pid}.`));
      yield Buffer.from("2025552110\n");
    }
    const u = await storeUploadStream(user, "a.csv", slow());
    expect(seen).toEqual([`${u!.id}.csv.${host}~${process.pid}.part`]);
    expect(fs.readdirSync(dir()).filter((n) => n.startsWith(u!.id))).toEqual([`${u!.id}.csv`, `${u!.id}.json`]);
  });
});
