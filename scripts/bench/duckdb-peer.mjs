// The benchmark's peer, in a fresh process: the same list loads and the same scrub done by DuckDB.
// argv: JSON {input, lists: {name: file}, out, threads, phone, loadsOnly?}. Prints JSON figures (seconds, counts, maxRss);
// with loadsOnly, the loads' only.
// The scrub: read_csv (all text), digits-only normalisation (10 digits, or 11 starting with 1; area code and
// exchange not starting with 0/1), first occurrence kept (row_number over the number), semi-joins against
// the lists, three COPY TO outputs in input order with every input column.
import fs from "node:fs";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";

const args = JSON.parse(process.argv[2]);
const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
const ident = (s) => `"${String(s).replaceAll('"', '""')}"`;

const instance = await DuckDBInstance.create(":memory:", { threads: String(args.threads ?? 2) });
const db = await instance.connect();
const result = { loads: {}, scrub: null };

for (const [name, file] of Object.entries(args.lists)) {
  const t = performance.now();
  await db.run(`create table ${ident(name)} as select distinct column0 as n from read_csv(${q(file)}, header = false, columns = {'column0': 'BIGINT'})`);
  const seconds = (performance.now() - t) / 1000;
  const rows = Number((await db.runAndReadAll(`select count(*) from ${ident(name)}`)).getRows()[0][0]);
  result.loads[name] = { numbers: rows, seconds, numbersPerSecond: Math.round(rows / seconds) };
}

if (args.loadsOnly) {
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
}

fs.mkdirSync(args.out, { recursive: true });
const t = performance.now();
const listChecks =
  Object.keys(args.lists)
    .map((name) => `num in (select n from ${ident(name)})`)
    .join(" or ") || "false";
const phone = ident(args.phone);
await db.run(`
  create temp table scrubbed as
  with src as (
    select row_number() over () as rn, *, regexp_replace(${phone}, '[^0-9]', '', 'g') as d
    from read_csv(${q(args.input)}, all_varchar = true, header = true)
  ), ten as (
    select *, case when length(d) = 11 and d[1] = '1' then d[2:] when length(d) = 10 then d end as t10 from src
  ), num as (
    select *, case when t10 is not null and t10[1] >= '2' and t10[4] >= '2' then t10::bigint end as num from ten
  )
  select *, case
    when num is null then 'invalid'
    when row_number() over (partition by num order by rn) > 1 then 'bad'
    when ${listChecks} then 'bad'
    else 'good' end as cat
  from num`);
const columns = (await db.runAndReadAll(`select * from read_csv(${q(args.input)}, all_varchar = true, header = true) limit 0`)).columnNames();
const select = columns.map(ident).join(", ");
for (const cat of ["good", "bad", "invalid"]) {
  await db.run(`copy (select ${select} from scrubbed where cat = ${q(cat)} order by rn) to ${q(path.join(args.out, `${cat}.csv`))} (header, delimiter ',')`);
}
const seconds = (performance.now() - t) / 1000;
const counts = Object.fromEntries((await db.runAndReadAll(`select cat, count(*) from scrubbed group by cat`)).getRows().map(([c, n]) => [c, Number(n)]));
const rows = (counts.good ?? 0) + (counts.bad ?? 0) + (counts.invalid ?? 0);
result.scrub = { rows, good: counts.good ?? 0, bad: counts.bad ?? 0, invalid: counts.invalid ?? 0, seconds, rowsPerSecond: Math.round(rows / seconds) };
result.maxRssBytes = process.resourceUsage().maxRSS * 1024;
db.closeSync?.();
process.stdout.write(JSON.stringify(result));
