/**
 * The CLI's process (dist/cli.mjs): a command that writes lists (`lists …`) relaunches once on huge pages when
 * that helps (huge-pages.ts), before any of the commands' modules load; then the commands themselves (cli.ts,
 * bundled beside it as dist/cli-main.mjs). A scrub stays on small pages: it gained 5–8 % in speed but 4–12 % in
 * peak RSS (decision 173).
 */
import { ensureHugePages } from "./huge-pages";

if (process.argv[2] === "lists") await ensureHugePages();
await import(new URL("./cli-main.mjs", import.meta.url).href);
