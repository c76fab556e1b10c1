import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * Finds values imported from a `.server` module that end up running in the browser.
 *
 * Remix's client build replaces every `.server` module with an empty one, removes the server-only
 * route exports (loader, action, headers) and lets the bundler drop what only they used. What it cannot
 * drop is code that runs when the module loads (a call at module level, e.g. `const s = z.enum(X)`) and
 * whatever the client exports (the component, meta, links, ErrorBoundary...) reach. A `.server` value
 * used there is `undefined` in the browser: the page crashes or renders differently from the server.
 * Type-only imports are erased and always fine.
 */
export interface ServerImportViolation {
  file: string;
  name: string;
  from: string;
  line: number;
  usedBy: string;
}

const SERVER_ONLY_ROUTE_EXPORTS = new Set(["loader", "action", "headers"]);

function isServerModule(spec: string): boolean {
  return /\.server(\.[cm]?[jt]sx?)?$/.test(spec) || spec.endsWith(".server/index");
}

/**
 * The symbols a node reads, resolved by the type checker so a local `const action = ...` is not mistaken for
 * the module's `action`. Types vanish in the bundle: they are not followed.
 */
function referencedSymbols(checker: ts.TypeChecker, node: ts.Node, out = new Set<ts.Symbol>()): Set<ts.Symbol> {
  const visit = (n: ts.Node) => {
    if (ts.isTypeNode(n) && !ts.isExpressionWithTypeArguments(n)) return;
    if (ts.isIdentifier(n) || ts.isJsxNamespacedName(n)) {
      const symbol = ts.isIdentifier(n) ? checker.getSymbolAtLocation(n) : undefined;
      if (symbol) out.add(symbol);
      return;
    }
    if (ts.isShorthandPropertyAssignment(n)) {
      const symbol = checker.getShorthandAssignmentValueSymbol(n);
      if (symbol) out.add(symbol);
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

/** Whether evaluating this initializer runs code (a call, `new`, a tagged template...) when the module loads. */
function runsAtLoad(expr: ts.Expression | undefined): boolean {
  if (!expr) return false;
  let runs = false;
  const visit = (n: ts.Node) => {
    if (runs) return;
    if (ts.isFunctionLike(n) || ts.isClassLike(n)) return; // bodies run later, when called
    if (ts.isCallExpression(n) || ts.isNewExpression(n) || ts.isTaggedTemplateExpression(n)) {
      runs = true;
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(expr);
  return runs;
}

interface TopLevel {
  declares: ts.Symbol[];
  node: ts.Node;
  /** Kept in the client bundle whatever references it. */
  root: boolean;
  label: string;
  /** What an `export { local as Name }` hands out. */
  reads?: ts.Symbol;
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && !!ts.getModifiers(node)?.some((m) => m.kind === kind);
}

function bindingNames(name: ts.BindingName): ts.Identifier[] {
  if (ts.isIdentifier(name)) return [name];
  return name.elements.flatMap((e) => (ts.isBindingElement(e) ? bindingNames(e.name) : []));
}

function topLevelUnits(checker: ts.TypeChecker, sf: ts.SourceFile, isRoute: boolean): TopLevel[] {
  const clientExport = (name: string) => !isRoute || !SERVER_ONLY_ROUTE_EXPORTS.has(name);
  const symbolsOf = (ids: ts.Identifier[]) => ids.map((id) => checker.getSymbolAtLocation(id)).filter((x): x is ts.Symbol => !!x);
  const units: TopLevel[] = [];
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isInterfaceDeclaration(st)) continue;
    if (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) {
      const name = st.name?.text ?? "default";
      const exported = hasModifier(st, ts.SyntaxKind.ExportKeyword);
      const root = hasModifier(st, ts.SyntaxKind.DefaultKeyword) || (exported && clientExport(name));
      units.push({ declares: st.name ? symbolsOf([st.name]) : [], node: st, root, label: name });
    } else if (ts.isVariableStatement(st)) {
      const exported = hasModifier(st, ts.SyntaxKind.ExportKeyword);
      for (const d of st.declarationList.declarations) {
        const ids = bindingNames(d.name);
        const root = (exported && ids.some((id) => clientExport(id.text))) || runsAtLoad(d.initializer);
        units.push({ declares: symbolsOf(ids), node: d.initializer ?? d, root, label: ids.map((id) => id.text).join(", ") });
      }
    } else if (ts.isExportDeclaration(st)) {
      // `export { x as loader }` stays on the server; a re-export from another module reads nothing here.
      if (st.isTypeOnly || st.moduleSpecifier || !st.exportClause || !ts.isNamedExports(st.exportClause)) continue;
      for (const el of st.exportClause.elements) {
        if (!clientExport(el.name.text)) continue;
        const local = checker.getExportSpecifierLocalTargetSymbol(el);
        units.push({ declares: [], node: el, root: true, label: `export ${el.name.text}`, reads: local });
      }
    } else {
      // export default <expr>, expression statements, enums, if/for at module level: all run or ship.
      units.push({ declares: [], node: st, root: true, label: ts.isExportAssignment(st) ? "default export" : "module-level code" });
    }
  }
  return units;
}

/** The program the checks run in: no lib, no module resolution, just the files' own symbols. */
export function parseModules(files: { file: string; source: string }[]): ts.Program {
  const byName = new Map(files.map((f) => [f.file, f.source]));
  const options: ts.CompilerOptions = { noResolve: true, noLib: true, jsx: ts.JsxEmit.Preserve, target: ts.ScriptTarget.Latest, allowJs: true };
  const host = ts.createCompilerHost(options);
  host.getSourceFile = (name, target) => {
    const text = byName.get(name);
    return text === undefined ? undefined : ts.createSourceFile(name, text, target, true);
  };
  host.fileExists = (name) => byName.has(name);
  host.readFile = (name) => byName.get(name);
  return ts.createProgram([...byName.keys()], options, host);
}

/** A route module without a default export is a resource route: the browser never loads it. */
function isResourceRoute(sf: ts.SourceFile): boolean {
  return !sf.statements.some(
    (st) =>
      ts.isExportAssignment(st) ||
      (hasModifier(st, ts.SyntaxKind.ExportKeyword) && hasModifier(st, ts.SyntaxKind.DefaultKeyword)) ||
      (ts.isExportDeclaration(st) &&
        !!st.exportClause &&
        ts.isNamedExports(st.exportClause) &&
        st.exportClause.elements.some((e) => e.name.text === "default")),
  );
}

export function findServerValueImports(program: ts.Program, file: string, isRoute: boolean): ServerImportViolation[] {
  const sf = program.getSourceFile(file);
  if (!sf) throw new Error(`not parsed: ${file}`);
  if (isRoute && isResourceRoute(sf)) return [];
  const checker = program.getTypeChecker();
  const serverValues = new Map<ts.Symbol, { name: string; from: string; line: number }>();
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const from = st.moduleSpecifier.text;
    const clause = st.importClause;
    if (!isServerModule(from) || !clause || clause.isTypeOnly) continue;
    const line = sf.getLineAndCharacterOfPosition(st.getStart(sf)).line + 1;
    const names: ts.Identifier[] = [];
    if (clause.name) names.push(clause.name);
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name);
    if (bindings && ts.isNamedImports(bindings)) names.push(...bindings.elements.filter((el) => !el.isTypeOnly).map((el) => el.name));
    for (const id of names) {
      const symbol = checker.getSymbolAtLocation(id);
      if (symbol) serverValues.set(symbol, { name: id.text, from, line });
    }
  }
  if (serverValues.size === 0) return [];

  const units = topLevelUnits(checker, sf, isRoute);
  const refs = units.map((u) => {
    const read = referencedSymbols(checker, u.node);
    if (u.reads) read.add(u.reads);
    return read;
  });
  const declaredBy = new Map<ts.Symbol, number[]>();
  units.forEach((u, i) => u.declares.forEach((s) => declaredBy.set(s, [...(declaredBy.get(s) ?? []), i])));

  // Everything the client keeps: the roots and whatever they reach. `via` remembers which root pulled it in.
  const via = new Map<number, string>();
  const queue: number[] = [];
  units.forEach((u, i) => {
    if (!u.root) return;
    via.set(i, u.label);
    queue.push(i);
  });
  while (queue.length) {
    const i = queue.shift()!;
    for (const symbol of refs[i]) {
      for (const j of declaredBy.get(symbol) ?? []) {
        if (via.has(j)) continue;
        via.set(j, via.get(i)!);
        queue.push(j);
      }
    }
  }

  const violations: ServerImportViolation[] = [];
  for (const [i, root] of via) {
    for (const symbol of refs[i]) {
      const imp = serverValues.get(symbol);
      if (!imp) continue;
      const usedBy = units[i].label === root ? root : `${units[i].label} (kept by ${root})`;
      violations.push({ file, name: imp.name, from: imp.from, line: imp.line, usedBy });
    }
  }
  return violations;
}

/** Every module of app/ that can reach the browser: routes and everything that is not `.server` or a test. */
export function clientModules(appDir: string): { file: string; isRoute: boolean }[] {
  const out: { file: string; isRoute: boolean }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name.endsWith(".server")) continue;
        walk(full);
        continue;
      }
      if (!/\.[jt]sx?$/.test(entry.name) || /\.d\.ts$/.test(entry.name)) continue;
      if (/\.server\.[jt]sx?$/.test(entry.name) || /\.test\.[jt]sx?$/.test(entry.name)) continue;
      if (entry.name.startsWith("entry.server.")) continue;
      const rel = path.relative(appDir, full);
      // A route is a file directly in routes/ or a route folder's route.tsx; the folder's other modules are not.
      const parts = rel.split(path.sep);
      const isRoute = rel === "root.tsx" || (parts[0] === "routes" && (parts.length === 2 || (parts.length === 3 && /^route\.[jt]sx?$/.test(parts[2]))));
      out.push({ file: full, isRoute });
    }
  };
  walk(appDir);
  return out;
}
