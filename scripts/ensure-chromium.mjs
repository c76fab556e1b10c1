#!/usr/bin/env node
// Playwright drives Debian's Chromium (it cannot download a browser here). Finds it at CHROMIUM_PATH or
// /usr/bin/chromium; when neither exists and this runs as root on a machine with apt, installs Debian's
// `chromium` package and says so; otherwise stops with the one command to run.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const wanted = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const hasApt = () => {
  try {
    execFileSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

if (fs.existsSync(wanted)) process.exit(0);
if (process.env.CHROMIUM_PATH) {
  console.error(`CHROMIUM_PATH is ${wanted}, which does not exist.`);
  process.exit(1);
}
if (process.getuid?.() === 0 && hasApt()) {
  console.log("Chromium is missing: installing Debian's chromium package (apt-get install chromium)…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
  if (!fs.existsSync(wanted)) {
    console.error("apt-get installed chromium but /usr/bin/chromium is still missing.");
    process.exit(1);
  }
  console.log("Installed /usr/bin/chromium.");
  process.exit(0);
}
console.error("The browser tests need Debian's Chromium at /usr/bin/chromium (or set CHROMIUM_PATH). Run:\n  sudo apt-get install -y chromium");
process.exit(1);
