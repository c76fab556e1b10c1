import { describe, expect, it, vi } from "vitest";
import { skipWithout } from "./services";

describe("tests that need a service skip outside CI and fail in CI", () => {
  const absent = [{ kind: "tcp" as const, name: "PostgreSQL", url: "postgres://postgres@127.0.0.1:1/x" }];

  it("skips with a printed reason on a developer machine", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    await expect(skipWithout("faults", absent, {})).resolves.toBe(true);
    expect(info.mock.calls[0]?.[0]).toMatch(/^\[skipped\] faults: needs PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:1\/x, which does not answer/);
    info.mockRestore();
  });

  it("throws under CI=true instead of skipping", async () => {
    await expect(skipWithout("faults", absent, { CI: "true" })).rejects.toThrow(/CI=true never skips tests\. faults: needs PostgreSQL/);
    await expect(skipWithout("faults", [{ kind: "program", name: "no-such-program-here" }], { CI: "true" })).rejects.toThrow(
      /needs the program no-such-program-here/,
    );
  });

  it("runs when everything needed is there", async () => {
    await expect(skipWithout("node", [{ kind: "program", name: "node" }], { CI: "true" })).resolves.toBe(false);
  });
});
