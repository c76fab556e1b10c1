import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "./dir-lock";

describe("PGlite directory lock", () => {
  it("refuses a second opener while the first is alive, and takes over a dead owner's lock", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lock-"));
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    release();

    // A lock file left by a process that has exited is stale.
    const child = spawn(process.execPath, ["-e", ""]);
    const pid = child.pid!;
    await new Promise((r) => child.on("exit", r));
    fs.writeFileSync(path.join(dir, "pglite.lock"), String(pid));
    const again = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, "pglite.lock"), "utf8")).toBe(String(process.pid));
    again();
  });

  it("names the directory and the owning process in its message", () => {
    const err = new DataDirLockedError("/data", 42);
    expect(err.message).toContain("/data");
    expect(err.message).toContain("42");
  });
});
