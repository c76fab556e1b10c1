// The benchmark's floor, run in a fresh process: stream the file, decode, split on \n, count rows.
// argv: FILE READ_BYTES. Prints {rows, seconds, rowsPerSecond, readBytes} as JSON.
import fs from "node:fs";

const [file, size] = process.argv.slice(2);
const highWaterMark = Number(size);
const t = performance.now();
let rows = 0;
let carry = "";
for await (const chunk of fs.createReadStream(file, { highWaterMark })) {
  const lines = (carry + chunk.toString("utf8")).split("\n");
  carry = lines.pop() ?? "";
  rows += lines.length;
}
if (carry) rows++;
const seconds = (performance.now() - t) / 1000;
process.stdout.write(JSON.stringify({ rows, seconds, rowsPerSecond: Math.round(rows / seconds), readBytes: highWaterMark }));
