/**
 * The CLI's process (dist/cli.mjs): a command that writes lists (`lists …`) relaunches once on huge pages when
 * that helps (huge-pages.ts), before any of the commands' modules load; then the commands themselves (cli.ts,
 * bundled beside it as dist/cli-main.mjs). A scrub stays on small pages: on huge pages it was faster, but the
 * embedded scrub's peak RSS grew by 25–40 MB (decision 173).
 */
import { ensureHugePages } from "./huge-pages";

if (process.argv[2] === "lists") await ensureHugePages();
await import(new URL("./cli-main.mjs", import.meta.url).href);
