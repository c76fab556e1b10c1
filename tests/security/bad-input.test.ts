import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../setup/db";
import type { DbHandle } from "db/client";
import { createScrubJob } from "scrub-service";
import { normalizePhone } from "scrub-service/domain";
import { BatchReader, RecordTooLargeError, countRecords, numbersOfFile, previewCsv } from "scrub-service/reader";
import { cleanupService, createUser, startService, tmpDir } from "scrub-service/testing";
import type { InProcessScrubService } from "scrub-service/in-process";
import { IntakeInputError, previewUpload } from "~/intake/preview.server";
import { CSV_MESSAGES } from "~/intake/purge-wizard";
import type { StoredUpload } from "~/intake/upload-store.server";

/*
 * Bad input against the real scrub engine (in-process, embedded list store) and the purge wizard's upload
 * check: every case ends with a clear outcome, never a crash, and never half-written results: a failed job has
 * no result_files rows and leaves no files in its output directory. (The upload size cap: tests/api/,
 * app/routes/_app.purge/route.test.ts and tests/security/server-security.test.ts.)
 */
let handle: DbHandle;
let svc: InProcessScrubService;
let userId: string;
let dir: string;
let seq = 0;

beforeAll(async () => {
  handle = await createTestDb();
  dir = tmpDir("bad-input");
  svc = await startService(handle, "embedded", { dataDir: dir });
  userId = await createUser(handle);
});
afterAll(async () => {
  await cleanupService(svc);
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function file(content: string | Buffer, name = `in-${++seq}.csv`): string {
  const p = path.join(dir, "inputs", name);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
  return p;
}

/** Runs a scrub of the file to its end; returns the row, the result files' text (latin1, byte for byte) and the outputs left on disk. */
async function scrub(inputPath: string, columnName: string | null = null) {
  const jobId = await createScrubJob(handle.db, { userId, fileName: path.basename(inputPath), inputPath, suppressionType: "LitigationOnly", columnName });
  await svc.enqueue(jobId);
  const status = await svc.waitFor("job", jobId, 60_000);
  const job = await handle.db.selectFrom("scrub_jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
  const files = await handle.db.selectFrom("result_files").selectAll().where("job_id", "=", jobId).execute();
  const text = (kind: string) => {
    const f = files.find((x) => x.kind === kind);
    return f ? fs.readFileSync(f.path, "latin1") : undefined;
  };
  const counts = { good: Number(job.good_count), bad: Number(job.bad_count), invalid: Number(job.invalid_count) };
  return { status, job, files, text, counts };
}

/** Every file of the results area that belongs to no result_files row: what a failure must not leave behind. */
async function orphanOutputs(): Promise<string[]> {
  const known = new Set((await handle.db.selectFrom("result_files").select("path").execute()).map((r) => path.resolve(r.path)));
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (p !== path.join(dir, "inputs")) walk(p);
      } else if (!known.has(path.resolve(p))) out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out.filter((p) => !p.startsWith("uploads") && !p.endsWith(".bloom") && !p.includes("lists"));
}

/** What the purge wizard's upload step answers for this file: the summary, or the spec's message. */
async function wizardAnswer(p: string): Promise<{ ok: true; headers: string[]; phoneColumn: string | null } | { ok: false; message: string }> {
  const upload: StoredUpload = {
    id: "x",
    userId,
    path: p,
    originalName: path.basename(p),
    bytes: fs.statSync(p).size,
    createdAt: "",
    manual: false,
    staged: false,
  };
  try {
    const s = await previewUpload(svc, upload);
    return { ok: true, headers: s.headers, phoneColumn: s.phoneColumn };
  } catch (e) {
    if (e instanceof IntakeInputError) return { ok: false, message: e.message };
    throw e;
  }
}

describe("bad input: the engine and the upload check give a clear outcome", () => {
  it("UTF-8 BOM and CRLF: the header is clean, rows end right, output keeps the data", async () => {
    const p = file("\uFEFFPhone,Name\r\n2125552101,Ann\r\n(310) 555-2102,Bob\r\n");
    expect(await wizardAnswer(p)).toEqual({ ok: true, headers: ["Phone", "Name"], phoneColumn: "Phone" });
    const r = await scrub(p, "Phone");
    expect(r.status).toBe("completed");
    expect(r.counts).toEqual({ good: 2, bad: 0, invalid: 0 });
    // The BOM is kept at the start of the output (Excel reads the file as UTF-8), never inside the header cell.
    expect(r.text("good")).toBe("\xEF\xBB\xBFPhone,Name,phone_e164\n2125552101,Ann,+12125552101\n(310) 555-2102,Bob,+13105552102\n");
  });

  it("quoted fields holding newlines, delimiters and doubled quotes stay one record", async () => {
    const p = file('Name,Phone,Note\n"Smith, Ann",2125552101,"line one\nline ""two"""\n"Bob",3105552102,plain\n');
    const r = await scrub(p, "Phone");
    expect(r.status).toBe("completed");
    expect(r.counts).toEqual({ good: 2, bad: 0, invalid: 0 });
    expect(r.text("good")).toContain('"line one\nline ""two"""');
    expect(Number(r.job.total_rows)).toBe(2);
  });

  it("an unclosed quote in a large file fails fast at the record-size limit, naming the line; nothing half-written", async () => {
    const rows = ["Name,Phone", "Ann,2125552101", "Bob,3105552102", '"Unclosed,2125552103'];
    for (let i = 0; i < 60_000; i++) rows.push(`Row ${i},${4155550000 + (i % 9000)}`);
    const p = file(rows.join("\n") + "\n"); // ~1.3 MB after the open quote, over the 1 MB limit
    expect(fs.statSync(p).size).toBeGreaterThan(1024 * 1024 + 4096);
    const r = await scrub(p, "Phone");
    expect(r.status).toBe("failed");
    expect(r.job.error).toBe('Line 4: a record is longer than 1 MB (is a quote (") left open on that line?). Please check the file format.');
    expect(r.files).toEqual([]);
    expect(await orphanOutputs()).toEqual([]);
    // The wizard's preview reads the first rows only and is fine; a preview that hits the record names its line too.
    expect((await wizardAnswer(p)).ok).toBe(true);
    const openAtTop = file('Phone,Name\n"2125552101,Ann\n' + "x,y\n".repeat(300_000));
    expect(await wizardAnswer(openAtTop)).toEqual({
      ok: false,
      message: 'Line 2: a record is longer than 1 MB (is a quote (") left open on that line?). Please check the file format.',
    });
  });

  const unclosed = (line: number) => `Line ${line}: a quote (") opens a field that is never closed. Please check the file format.`;

  it("an unclosed quote in a small file names its line in the scrub, the wizard and a list load; nothing half-written", async () => {
    // Without the check, the open quote swallows every later line into one cell and the rows silently vanish.
    const p = file('Name,Phone\nAnn,2125552101\n"Bob,3105552102\nCid,4155552103\nDee,6465552104\n');
    expect(await wizardAnswer(p)).toEqual({ ok: false, message: unclosed(3) });
    const r = await scrub(p, "Phone");
    expect(r.status).toBe("failed");
    expect(r.job.error).toBe(unclosed(3));
    expect(r.files).toEqual([]);
    expect(await orphanOutputs()).toEqual([]);
    await expect(numbersOfFile(p)).rejects.toThrow(unclosed(3));
    // in a header, and in a last line without a line feed
    expect(await wizardAnswer(file('"Phone,Name\n2125552101,Ann\n'))).toEqual({ ok: false, message: unclosed(1) });
    expect((await scrub(file('Phone,Note\n2125552101,a\n3105552102,"open'), "Phone")).job.error).toBe(unclosed(3));
  });

  it("the line is right across tiny batches, CRLF, quoted newlines before it and UTF-16; closed quotes are never flagged", async () => {
    const rows = ["id,note,phone"];
    for (let i = 0; i < 40; i++) rows.push(`${i},"two\nlines, ""quoted""",${2125552000 + i}`); // each row spans two lines
    const body = rows.join("\r\n") + '\r\n41,"never closed,2125552999\r\n42,x,2125552998\r\n';
    const readAll = async (p: string, batch: number) => {
      const reader = new BatchReader(p, batch);
      try {
        await reader.open();
        reader.skipFirstRow();
        let n = 0;
        while (await reader.next()) n++;
        return n;
      } finally {
        await reader.close();
      }
    };
    for (const batch of [64, 1000, 1 << 20]) await expect(readAll(file(body), batch), `batch ${batch}`).rejects.toThrow(unclosed(82));
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body.replace(/,/g, "\t"), "utf16le")]);
    await expect(readAll(file(utf16, `u16-${seq}.txt`), 256)).rejects.toThrow(unclosed(82));
    // Well-formed quoting (a quote closing at the very end, an escaped quote, a quote inside a field) reads to the end.
    for (const ok of [
      'Phone,Note\n2125552101,"closed"',
      'Phone,Note\n2125552101,"a ""b"""\n',
      'Phone,Note\n2125552101,5" tall\n',
      'Phone,Note\n2125552101,"x\ny"',
    ]) {
      expect(await readAll(file(ok), 64), ok).toBeGreaterThan(0);
    }
  });

  it("the reader stops at the limit instead of growing its buffer to the file's size", async () => {
    const big = file('Phone\n2125552101\n"open\n' + "2125552102\n".repeat(200_000)); // 2.2 MB in one record
    const reader = new BatchReader(big, 16 * 1024, 64 * 1024);
    await reader.open();
    reader.skipFirstRow();
    let batches = 0;
    let caught: unknown;
    try {
      while (await reader.next()) batches++;
    } catch (e) {
      caught = e;
    } finally {
      await reader.close();
    }
    expect(caught).toBeInstanceOf(RecordTooLargeError);
    expect((caught as RecordTooLargeError).line).toBe(3);
    expect(reader.offset).toBeLessThan(64 * 1024); // never read past the record start + the limit
    expect(batches).toBeLessThanOrEqual(1);
  });

  /** A header of `columns` cells (Phone first) and one row holding a number in the first cell. */
  function wide(columns: number): string {
    const header = ["Phone", ...Array.from({ length: columns - 1 }, (_, i) => `c${i + 2}`)].join(",");
    return file(`${header}\n2125552101${",".repeat(columns - 1)}\n`);
  }

  it("more columns than the limit: the preview and the engine refuse the file naming the limit; 1,000 columns work", async () => {
    const message = "This file has 100,000 columns; at most 1,000 are supported.";
    const tooWide = wide(100_000);
    expect(await wizardAnswer(tooWide)).toEqual({ ok: false, message });
    const r = await scrub(tooWide, "Phone");
    expect(r.status).toBe("failed");
    expect(r.job.error).toBe(message);
    expect(r.files).toEqual([]);
    expect(await wizardAnswer(wide(1001))).toEqual({ ok: false, message: "This file has 1,001 columns; at most 1,000 are supported." });

    const atLimit = wide(1000);
    const answer = await wizardAnswer(atLimit);
    expect(answer).toMatchObject({ ok: true, phoneColumn: "Phone" });
    expect(answer.ok && answer.headers.length).toBe(1000);
    const done = await scrub(atLimit, "Phone");
    expect(done.status).toBe("completed");
    expect(done.counts).toEqual({ good: 1, bad: 0, invalid: 0 });
    expect(await orphanOutputs()).toEqual([]);
  });

  it("a previewed data row wider than the limit is refused too", async () => {
    const p = file(`Phone,Name\n2125552101,Ann${",".repeat(1500)}\n`);
    expect(await wizardAnswer(p)).toEqual({ ok: false, message: "This file has 1,502 columns; at most 1,000 are supported." });
  });

  it("a cell longer than 64 KB in the previewed rows is refused naming its column; 64 KB is fine", async () => {
    const limit = 64 * 1024;
    const tooLong = file(`Phone,Note\n2125552101,${"x".repeat(limit + 1)}\n`);
    expect(await wizardAnswer(tooLong)).toEqual({ ok: false, message: "Column 2 has a cell longer than 64 KB; at most 64 KB per cell are supported." });
    // counted in UTF-8 bytes: 22,000 three-byte characters are 66,000 bytes
    expect(await wizardAnswer(file(`Phone,Note\n2125552101,${"€".repeat(22_000)}\n`))).toMatchObject({ ok: false });
    const header = file(`Phone,${"h".repeat(limit + 1)}\n2125552101,x\n`);
    expect(await wizardAnswer(header)).toEqual({ ok: false, message: "Column 2 has a cell longer than 64 KB; at most 64 KB per cell are supported." });
    const atLimit = file(`Phone,Note\n2125552101,${"x".repeat(limit)}\n`);
    expect(await wizardAnswer(atLimit)).toMatchObject({ ok: true, headers: ["Phone", "Note"] });
  });

  it("ragged rows: short, long and empty rows are scrubbed or marked invalid, never a crash", async () => {
    const p = file("Name,Phone,City\nAnn,2125552101\nBob,3105552102,LA,extra,cells\nCy\n\n,,\nDee,4155552103,SF\n");
    const r = await scrub(p, "Phone");
    expect(r.status).toBe("completed");
    expect(r.counts.good).toBe(3);
    expect(r.counts.invalid).toBe(2);
    expect(r.text("good")).toContain("Bob,3105552102,LA,extra,cells,+13105552102\n");
    // a short row is padded so phone_e164 stays in its column (decision 184)
    expect(r.text("good")).toContain("Ann,2125552101,,+12125552101\n");
  });

  it("duplicate and empty headers: the first matching column is used; all-empty headers get the spec's message", async () => {
    const dup = file("Phone,Phone,\n2125552101,not a number,x\n");
    const answer = await wizardAnswer(dup);
    expect(answer).toMatchObject({ ok: true, headers: ["Phone", "Phone", ""] });
    const r = await scrub(dup, "Phone");
    expect(r.status).toBe("completed");
    expect(r.counts).toEqual({ good: 1, bad: 0, invalid: 0 });
    expect(await wizardAnswer(file(",,\nx,2125552101,y\n"))).toEqual({ ok: false, message: CSV_MESSAGES.headers });
  });

  it("bytes that are not UTF-8 are read as Windows-1252 and written as UTF-8; the numbers still scrub", async () => {
    const bytes = Buffer.concat([
      Buffer.from("Name,Phone\n"),
      Buffer.from([0x4a, 0x6f, 0x73, 0xe9]), // "José" in Latin-1
      Buffer.from(",2125552101\n"),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28]), // not UTF-8 at all
      Buffer.from(",3105552102\n"),
    ]);
    const p = file(bytes);
    expect((await wizardAnswer(p)).ok).toBe(true);
    const r = await scrub(p, "Phone");
    expect(r.status).toBe("completed");
    expect(r.counts).toEqual({ good: 2, bad: 0, invalid: 0 });
    // every cell's text kept, now in UTF-8 (issue #15: the outputs are UTF-8 whatever the input's encoding)
    expect(Buffer.from(r.text("good")!, "latin1").toString("utf8")).toBe("Name,Phone,phone_e164\nJosé,2125552101,+12125552101\nÿþÃ(,3105552102,+13105552102\n");
    expect(r.job.input_encoding).toBe("Windows-1252");
  });

  it("Excel-mangled numbers are invalid with their own reason", async () => {
    const r = await scrub(file("Phone\n1.23457E+9\n2.12555E+09\n2125552101\n"), "Phone");
    expect(r.status).toBe("completed");
    expect(r.counts).toEqual({ good: 1, bad: 0, invalid: 2 });
    const excel = "Excel scientific notation (like 1.23457E+9): digits were lost - format the column as text and export again";
    expect(r.text("invalid")).toBe(`Phone,phone_e164,reason\n1.23457E+9,,${excel}\n2.12555E+09,,${excel}\n`);
  });

  it("every phone format variant: the file scrub agrees with the normalizer, cell by cell", async () => {
    const variants = [
      "2125552101",
      "12125552102",
      "+12125552103",
      "+1 212 555 2104",
      "(212) 555-2105",
      "212.555.2106",
      "212-555-2107",
      "1-212-555-2108",
      "  2125552109  ",
      "+1 (212) 555.2110",
      "\t212 555 2111",
      '"(212) 555-2112"',
      '"212,555,0113"',
      "212/555/0114",
      "212555011",
      "212555011500",
      "0125552116",
      "2121550117",
      "2125552118 ext 5",
      "abc",
      "",
      "++12125552119",
      "１２１２５５５０１２０", // full-width digits
    ];
    const p = file(`Phone,Id\n${variants.map((v, i) => `${v},${i}`).join("\n")}\n`);
    const r = await scrub(p, "Phone");
    expect(r.status).toBe("completed");
    const goodIds = r
      .text("good")!
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(",").at(-2)); // before phone_e164
    const expected = variants
      .map((v, i) => ({ v: v.startsWith('"') ? v.slice(1, -1) : v, i }))
      .filter(({ v }) => normalizePhone(v) !== null)
      .map(({ i }) => String(i));
    expect(goodIds).toEqual(expected);
    expect(expected.length).toBeGreaterThanOrEqual(12);
    expect(r.counts.good + r.counts.invalid).toBe(variants.length);
  });

  it("an empty file and a header-only file: the wizard says so; the engine ends cleanly with no rows", async () => {
    for (const content of ["", "\n\n", "\uFEFF", "Phone,Name\n", "Phone,Name\r\n\r\n"]) {
      const p = file(content);
      expect(await wizardAnswer(p)).toEqual({ ok: false, message: CSV_MESSAGES.empty });
      const r = await scrub(p, content.includes("Phone") ? "Phone" : null);
      expect(["completed", "failed"]).toContain(r.status);
      if (r.status === "completed") expect(r.counts).toEqual({ good: 0, bad: 0, invalid: 0 });
      else expect(r.job.error).toBeTruthy();
    }
    expect(await orphanOutputs()).toEqual([]);
  });

  const ZIP_DAMAGED = "The zip file is damaged and cannot be opened (end of central directory record signature not found).";

  it("an image named .csv is refused as binary, a broken zip as a damaged zip, with clear messages; nothing written", async () => {
    const zip = Buffer.concat([
      Buffer.from("PK\x03\x04\x14\x00\x00\x00\x08\x00", "latin1"),
      Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 256)),
    ]);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(50_000, 0)]);
    const cases = [
      // the wizard and the engine say the same precise sentence
      {
        bytes: png,
        wizard: "The file is not a CSV text file (it contains binary data). Save it as CSV (UTF-8) and upload it again.",
        engine: "The file is not a CSV text file (it contains binary data). Save it as CSV (UTF-8) and upload it again.",
      },
      // a broken zip is named as such by both
      { bytes: zip, wizard: ZIP_DAMAGED, engine: ZIP_DAMAGED },
    ];
    for (const c of cases) {
      const p = file(c.bytes, `binary-${++seq}.csv`);
      expect(await wizardAnswer(p)).toEqual({ ok: false, message: c.wizard });
      // the count (the plan check) is a number or the reader's own refusal, never a guess (issue #26)
      await countRecords(p).then(
        (n) => expect(n).toBeGreaterThanOrEqual(0),
        (e: Error) => expect(e.message).toBe(c.engine),
      );
      const r = await scrub(p, null);
      expect(r.status).toBe("failed");
      expect(r.job.error).toBe(c.engine);
      expect(r.files).toEqual([]);
    }
    // Binary bytes after the start of a real CSV are data, not a reason to refuse the file.
    const late = Buffer.concat([Buffer.from("Phone\n2125552101\n" + "3105552102\n".repeat(7000)), Buffer.from([0x00, 0x01, 0x0a])]);
    const r = await scrub(file(late), "Phone");
    expect(r.status).toBe("completed");
    expect(r.counts).toEqual({ good: 2, bad: 6999, invalid: 1 }); // the repeats are duplicates
    expect(await orphanOutputs()).toEqual([]);
  });

  it("cells starting with = + - @ TAB or CR are escaped in every output (OWASP); signed plain numbers are not", async () => {
    // Only a sign followed by a plain number (-12.5, +15551234567) stays as it is: -2+3 is a formula Excel computes,
    // and so is +1 212 555 2104 (issue #26 item 7, docs/decisions/154).
    const p = file(
      'Name,Phone,Note\n=SUM(A1),2125552101,@cmd\n+evil,3105552102,-2+3\n"=HYPERLINK(""x"")",4155552103,-12.5\n' +
        "-cmd|' /C calc'!A0,+1 212 555 2104,-1 212 555 2105\n=bad,12,-2+3\n+15,+12125552106,\"\tx\"\n",
    );
    const r = await scrub(p, "Phone");
    expect(r.status).toBe("completed");
    expect(r.text("good")).toBe(
      `Name,Phone,Note,phone_e164\n"'=SUM(A1)",2125552101,"'@cmd",+12125552101\n"'+evil",3105552102,"'-2+3",+13105552102\n"'=HYPERLINK(""x"")",4155552103,-12.5,+14155552103\n` +
        // the customer's phone cell stays escaped; phone_e164 is the dialer's clean key, a plain number (decision 184)
        `"'-cmd|' /C calc'!A0","'+1 212 555 2104","'-1 212 555 2105",+12125552104\n+15,+12125552106,"'\tx",+12125552106\n`,
    );
    expect(r.text("invalid")).toBe(`Name,Phone,Note,phone_e164,reason\n"'=bad",12,"'-2+3",,2 digits: a US phone number has 10 digits (11 starting with 1)\n`);
    // No cell of any output starts with a formula character, unless it is a signed plain number.
    for (const kind of ["good", "invalid"]) {
      for (const line of r.text(kind)!.trim().split("\n").slice(1)) {
        for (const cell of line.split(",")) {
          if (/^[-+]\d*\.?\d+$/.test(cell)) continue;
          expect(cell).not.toMatch(/^[=+@-]/);
        }
      }
    }
  });

  it("preview and count never throw anything but a plain Error for any of the files above", async () => {
    for (const name of fs.readdirSync(path.join(dir, "inputs"))) {
      const p = path.join(dir, "inputs", name);
      await countRecords(p).then(
        (n) => expect(n).toBeGreaterThanOrEqual(0),
        (e: Error) => expect([e instanceof Error, e.name]).toEqual([true, "InputFormatError"]),
      );
      await previewCsv(p).catch((e) => expect(e).toBeInstanceOf(Error));
    }
  });
});
