import { generate } from "./data";
const t = performance.now();
const f = await generate({ dir: "/tmp/bench-national", rows: 1_000_000, small: 100_000, lit: 100_000, dnc: 250_000_000, change: 1_000_000, gzip: false });
console.log(f, ((performance.now() - t) / 1000).toFixed(0), "s");
