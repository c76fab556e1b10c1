/**
 * npm run verify:vicidial -- --script PATH --url URL --key KEY [--leads N | --numbers FILE] [--db NAME]
 *
 * Runs VICIdial's own DNC filter script, unchanged, against the compatible scrub (issue #48, decision 189): the
 * administrator's copy of `AST_DNCcom_filter.pl` (VICIdial ships it in bin/, installed under /usr/share/astguiclient;
 * it is not part of this repository) scrubs N generated leads (default 60,000: two requests, the first of 50,000 or
 * more; or the numbers of FILE, one per line, e.g. some known to be on your lists) held in a scratch MariaDB/MySQL database, through the product at URL with the API key KEY. The script needs
 * Perl's DBI, DBD::mysql, WWW::Curl::Easy and WWW::Curl::Form (Debian: libdbd-mysql-perl libwww-curl-perl) and reads
 * its database settings from /etc/astguiclient.conf, which this tool writes for the run and removes after (it refuses
 * to run when one exists: that is a real VICIdial's). MySQL: MYSQL_HOST (127.0.0.1), MYSQL_USER (root), MYSQL_PWD.
 *
 * Prints the script's own result line and the leads' new statuses, and fails (exit 1) unless every 10-digit lead got
 * a status from an answer line that echoed its number, the two leads that are not 10 digits were left alone, and the
 * script logged its scrub as finished. Not a test of the suite: the suite cannot carry VICIdial's AGPL script; this
 * is how an administrator (or a release check) proves the contract against the real client.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import { parseArgs } from "node:util";
import { validNumbers } from "scrub-service/bench";

const { values } = parseArgs({
  options: {
    script: { type: "string" },
    url: { type: "string" },
    key: { type: "string" },
    leads: { type: "string", default: "60000" },
    numbers: { type: "string" },
    db: { type: "string", default: "scrub_vicidial_check" },
  },
});
if (!values.script || !values.url || !values.key) {
  console.error("Usage: npm run verify:vicidial -- --script /usr/share/astguiclient/AST_DNCcom_filter.pl --url https://host --key KEY [--leads N]");
  process.exit(2);
}
const CONF = "/etc/astguiclient.conf";
if (fs.existsSync(CONF)) {
  console.error(`${CONF} exists (a VICIdial installation's): run this on a machine without one, so no real dialer's database is touched.`);
  process.exit(2);
}
const db = values.db;
if (!/^[a-z_][a-z0-9_]*$/.test(db)) throw new Error("--db must be a plain name");
const host = process.env.MYSQL_HOST ?? "127.0.0.1";
const user = process.env.MYSQL_USER ?? "root";
const mysql = (sql: string, database = "") =>
  execFileSync("mysql", ["-h", host, "-u", user, "--batch", "--skip-column-names", ...(database ? [database] : [])], {
    input: sql,
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
const quote = (s: string) => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

// the four tables the script reads and writes, with the columns it uses, in MyISAM as VICIdial creates them (InnoDB's
// commit per statement makes the script's 120,000 single-row writes ten times slower)
const TABLES = `
CREATE TABLE vicidial_list (lead_id INT UNSIGNED AUTO_INCREMENT PRIMARY KEY, list_id BIGINT NOT NULL, status VARCHAR(6),
  phone_number VARCHAR(18) NOT NULL, comments VARCHAR(255) DEFAULT '', INDEX (list_id)) ENGINE=MyISAM;
CREATE TABLE vicidial_settings_containers (container_id VARCHAR(40) PRIMARY KEY, container_entry MEDIUMTEXT) ENGINE=MyISAM;
CREATE TABLE vicidial_admin_log (admin_log_id INT UNSIGNED AUTO_INCREMENT PRIMARY KEY, event_date DATETIME, user VARCHAR(20),
  ip_address VARCHAR(45), event_section VARCHAR(30), event_type VARCHAR(30), record_id VARCHAR(50), event_code VARCHAR(255),
  event_sql TEXT, event_notes TEXT) ENGINE=MyISAM;
CREATE TABLE vicidial_dnccom_filter_log (filter_log_id INT UNSIGNED AUTO_INCREMENT PRIMARY KEY, lead_id INT UNSIGNED,
  list_id BIGINT, filter_date DATETIME, new_status VARCHAR(6), old_status VARCHAR(6), phone_number VARCHAR(18), dnccom_data VARCHAR(255)) ENGINE=MyISAM;`;

const STATUS = { C: "DNCOK", D: "DNCC", O: "DNCO", E: "DNCE", I: "DNCI" } as const;
const entry = [
  `LOGIN_ID => ${values.key}`,
  "VERSION => 3",
  "PROJ_ID => ",
  "CAMPAIGN_ID => VERIFY",
  `DNC_DOT_COM_URL => ${values.url.replace(/\/$/, "")}/api/compat/dncscrub/scrub`,
  "VICI_STATUS_SKIP => DNCC-DNCL",
  ...Object.entries(STATUS).map(([code, status]) => `STATUS_${code} => ${status}`),
].join("\n");

const numbers = values.numbers
  ? fs
      .readFileSync(values.numbers, "utf8")
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => /^\d{10}$/.test(l))
  : validNumbers(Number(values.leads), 48);
// a repeat (sent twice, answered twice) and two leads that are not 10 digits (the script never sends them)
const phones = [...numbers, numbers[0], "12345", "15551234567"];
const sql = [`DROP DATABASE IF EXISTS ${db};`, `CREATE DATABASE ${db};`, `USE ${db};`, TABLES];
sql.push(`INSERT INTO vicidial_settings_containers VALUES ('DNCDOTCOM', ${quote(entry)});`);
for (let i = 0; i < phones.length; i += 5000) {
  sql.push(
    `INSERT INTO vicidial_list (list_id, status, phone_number) VALUES ${phones
      .slice(i, i + 5000)
      .map((p) => `(101,'NEW','${p}')`)
      .join(",")};`,
  );
}
mysql(sql.join("\n"));

fs.writeFileSync(
  CONF,
  [
    `VARDB_server => ${host}`,
    `VARDB_database => ${db}`,
    `VARDB_user => ${user}`,
    `VARDB_pass => ${process.env.MYSQL_PWD ?? ""}`,
    "VARDB_port => 3306",
    "",
  ].join("\n"),
);
let ran: ReturnType<typeof spawnSync>;
const t0 = performance.now();
try {
  ran = spawnSync("perl", [values.script, "--lists=101"], { encoding: "utf8", maxBuffer: 1 << 26 });
} finally {
  fs.rmSync(CONF, { force: true });
}
const seconds = (performance.now() - t0) / 1000;
const out = `${ran.stdout ?? ""}${ran.stderr ?? ""}`.trim();
if (out) console.log(`the script said: ${out.slice(0, 2000)}`);

const statuses = mysql(`SELECT status, COUNT(*) FROM vicidial_list GROUP BY status ORDER BY status;`, db).trim();
const finished = mysql(`SELECT event_notes FROM vicidial_admin_log WHERE event_code = 'DNC.com SCRUB FINISHED';`, db).trim();
const logged = Number(mysql(`SELECT COUNT(*) FROM vicidial_dnccom_filter_log;`, db).trim());
const echoed = Number(mysql(`SELECT COUNT(*) FROM vicidial_dnccom_filter_log WHERE dnccom_data LIKE CONCAT(phone_number, ',%');`, db).trim());
const left = mysql(`SELECT phone_number FROM vicidial_list WHERE status = 'NEW' ORDER BY lead_id;`, db).trim().split("\n").filter(Boolean);
const longest = Number(mysql(`SELECT COALESCE(MAX(LENGTH(dnccom_data)), 0) FROM vicidial_dnccom_filter_log;`, db).trim());

console.log(`AST_DNCcom_filter.pl against ${values.url}: ${phones.length.toLocaleString("en-US")} leads in ${seconds.toFixed(1)} s (exit ${ran.status})`);
console.log(`  statuses: ${statuses.replace(/\t/g, " ").replace(/\n/g, " · ")}`);
console.log(`  the script's result: ${finished.replace(/\\n/g, " ") || "(no FINISHED entry)"}`);
console.log(
  `  answer lines logged: ${logged.toLocaleString("en-US")}, echoing their lead's number: ${echoed.toLocaleString("en-US")}, longest ${longest} characters`,
);
const ok =
  ran.status === 0 &&
  finished !== "" &&
  logged === numbers.length + 1 &&
  echoed === logged &&
  longest < 240 &&
  left.length === 2 &&
  left[0] === "12345" &&
  left[1] === "15551234567";
console.log(ok ? "VERIFIED: VICIdial's filter ran unchanged against the product." : "FAILED: see above.");
process.exit(ok ? 0 : 1);
