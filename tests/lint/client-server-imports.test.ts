import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clientModules, findServerValueImports, parseModules } from "./client-server-imports";

const appDir = path.resolve(import.meta.dirname, "../../app");

describe("no .server value reaches client code", () => {
  it("holds for every route and client module in app/", () => {
    const modules = clientModules(appDir);
    expect(modules.length).toBeGreaterThan(50);
    const program = parseModules(modules.map(({ file }) => ({ file, source: fs.readFileSync(file, "utf8") })));
    const found = modules.flatMap(({ file, isRoute }) =>
      findServerValueImports(program, file, isRoute).map((v) => ({ ...v, file: path.relative(appDir, file) })),
    );
    expect(found.map((v) => `${v.file}:${v.line} ${v.name} from ${v.from}, used by ${v.usedBy}`)).toEqual([]);
  });
});

describe("the check itself", () => {
  const check = (file: string, source: string, isRoute: boolean) => findServerValueImports(parseModules([{ file, source }]), file, isRoute);
  const route = (source: string) => check("/routes/x.tsx", source, true).map((v) => `${v.name}<-${v.usedBy}`);

  it("flags a .server value used in a module-level call (the User Management crash)", () => {
    expect(
      route(`import { STATUS } from "~/models/u.server";
import { z } from "zod";
const schema = z.enum(STATUS);
export async function loader() { return schema.parse("a"); }
export default function Page() { return null; }`),
    ).toEqual(["STATUS<-schema"]);
  });

  it("flags a .server value the component renders, directly or through a helper", () => {
    expect(
      route(`import { NO_PLAN, SIZE } from "~/models/u.server";
function label() { return SIZE; }
export default function Page() { return <option value={NO_PLAN}>{label()}</option>; }`).sort(),
    ).toEqual(["NO_PLAN<-Page", "SIZE<-label (kept by Page)"]);
  });

  it("flags client exports other than the component (meta, ErrorBoundary)", () => {
    expect(route(`import { TITLE } from "./t.server";\nexport const meta = () => [{ title: TITLE }];\nexport default function P() { return null; }`)).toEqual([
      "TITLE<-meta",
    ]);
  });

  it("accepts loader/action-only use, helpers only they reach, and type-only imports", () => {
    expect(
      route(`import { getDb, LIMIT } from "~/utils/db.server";
import type { Db } from "~/utils/db.server";
import { type Row, listRows } from "~/models/r.server";
function helper(db: Db) { return listRows(db, LIMIT); }
const pure = (r: Row) => r;
export async function loader() { return helper(await getDb()); }
export const action = async () => pure(await listRows(await getDb(), LIMIT));
export default function Page() { return null; }`),
    ).toEqual([]);
  });

  it("treats every export of a non-route module as client code", () => {
    expect(check("/components/x.tsx", `import { f } from "~/a.server";\nexport function loader() { return f(); }`, false)).toHaveLength(1);
  });

  it("resolves names: a local variable called like a route export is not that export", () => {
    expect(
      route(`import { save } from "~/a.server";
export async function action() { return save(); }
export default function Page() { const action = "x"; return <form action={action} />; }`),
    ).toEqual([]);
  });

  it("skips resource routes (no component: the browser never loads them)", () => {
    expect(route(`import { apiHandler } from "~/api.server";\nconst handle = apiHandler({});\nexport const loader = () => handle();`)).toEqual([]);
  });
});
