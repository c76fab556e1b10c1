import { describe, expect, it } from "vitest";
import { parseEngineConfig } from "scrub-service";
import { parseEnv, serverSettingsOf } from "./env.server";

/* server.mjs reads only BUILD_DIR itself; the rest comes parsed from the app's and the engine's schemas (issue #45). */
describe("the web server's settings", () => {
  const settings = (vars: Record<string, string>) => serverSettingsOf(parseEnv(vars), parseEngineConfig(vars));

  it("defaults: port 3000, 500 MiB uploads, no proxy trusted, no grace outside production, JSON logs", () => {
    expect(settings({})).toEqual({
      port: 3000,
      production: false,
      maxUploadBytes: 500 * 1024 * 1024,
      trustProxy: undefined,
      shutdownGraceMs: 0,
      logPretty: false,
    });
  });

  it("production waits 5 s after SIGTERM unless told otherwise; each variable is taken as given", () => {
    const prod = { NODE_ENV: "production", APP_URL: "https://app.example.com" };
    expect(settings(prod).shutdownGraceMs).toBe(5000);
    expect(settings({ ...prod, SHUTDOWN_GRACE_MS: "250", PORT: "8080", TRUST_PROXY: "loopback", MAX_UPLOAD_BYTES: "1024", LOG_PRETTY: "1" })).toEqual({
      port: 8080,
      production: true,
      maxUploadBytes: 1024,
      trustProxy: "loopback",
      shutdownGraceMs: 250,
      logPretty: true,
    });
  });

  it("a bad value stops the start and names the variable (it used to fall back silently)", () => {
    expect(() => settings({ MAX_UPLOAD_BYTES: "abc" })).toThrow(/MAX_UPLOAD_BYTES/);
    expect(() => settings({ PORT: "-1" })).toThrow(/PORT/);
    expect(() => settings({ SHUTDOWN_GRACE_MS: "soon" })).toThrow(/SHUTDOWN_GRACE_MS/);
  });
});
