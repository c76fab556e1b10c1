// The linter `npm test` runs with zero warnings (issue #45): typescript-eslint's recommended rules, React's hooks
// rules on the components, and the layer rule of docs/architecture.md ("Layers") as import restrictions.
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

const ENGINE_INTERNALS = {
  group: ["scrub-service/src/*", "**/scrub-service/src/*", "**/scrub-service/src"],
  message: "Outside the engine, import it by its public entries (scrub-service, scrub-service/domain …), never its files.",
};
const DB_BY_NAME = {
  regex: "^(\\.\\./)+db/",
  message: "Import the database by its package name (db/client, db/schema …), never by a path into db/ (issue #45, decision 193).",
};
const UP = "may not reach up (docs/architecture.md, Layers: utils → models → areas → routes).";

/** The import restrictions of one layer: the layers above it, and the engine's internals. */
function layer(above, who) {
  const patterns = [ENGINE_INTERNALS, DB_BY_NAME];
  if (above.length) patterns.push({ group: above, message: `${who} ${UP}` });
  return { "no-restricted-imports": ["error", { patterns }] };
}

const TESTS = ["**/*.test.ts", "**/*.test.tsx"];
const AREAS = ["~/intake/*", "~/api/*", "~/accounts/*", "~/proof/*", "~/integrations/*", "~/maintenance/*", "~/components/*"];

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "build-*/**",
      "public/build/**",
      "scrub-service/dist/**",
      "node_modules/**",
      ".cache/**",
      "test-results/**",
      "playwright-report/**",
      "**/*.generated.ts",
      "data/**",
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,mts}"],
    rules: {
      "@typescript-eslint/no-unused-vars": ["warn", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  // Kysely's migrations take Kysely<any> by design (a migration must not depend on today's schema types); tests,
  // benches and scripts read JSON answers whose shape is what they assert
  {
    files: [
      "db/migrations/**",
      "tests/**",
      "**/*.test.ts",
      "**/*.test.tsx",
      "scripts/**",
      "scrub-service/bench/**",
      "scrub-service/scripts/**",
      "scrub-service/src/test/bench/**",
    ],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  // React's rules where React is: the app's components and routes (test helpers named use… are not hooks)
  { files: ["app/**/*.tsx"], plugins: { "react-hooks": reactHooks }, rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "warn" } },
  // the ground floor: leaf helpers reach no model, area or route (tests may exercise several layers at once)
  { files: ["app/utils/**"], ignores: TESTS, rules: layer(["~/models/*", "~/routes/*", ...AREAS], "app/utils holds leaf helpers: it") },
  // models: queries, below the areas and the routes
  { files: ["app/models/**"], ignores: TESTS, rules: layer(["~/routes/*", ...AREAS], "app/models") },
  // areas: never the routes
  { files: AREAS.map((a) => `app/${a.slice(2, -2)}/**`), ignores: TESTS, rules: layer(["~/routes/*"], "An area") },
  // everything else outside the engine: only its public entries
  { files: ["app/routes/**", "app/*.{ts,tsx}", "db/**", "tests/**", "scripts/**"], rules: layer([], "") },
  // issue #45 (decision 188): the environment is read at the entries only, parsed there (the app's env.server.ts, the
  // engine's EngineConfig in scrub-service/src/config.ts) and passed down; below them a `process.env` is an error
  {
    files: ["**/*.{ts,tsx,mts,mjs,js}"],
    ignores: [
      // the entries: the web server, the app's one parse, the scrub service's and the CLI's, the huge-pages relaunch
      "server.mjs",
      "app/utils/env.server.ts",
      "scrub-service/src/service-main.ts",
      "scrub-service/src/cli.ts",
      "scrub-service/src/cli-launcher.ts",
      "scrub-service/src/huge-pages.ts",
      // tools around the product: scripts, benchmarks, tests and their configuration
      "scripts/**",
      "scrub-service/scripts/**",
      "scrub-service/bench/**",
      "scrub-service/test/**",
      "scrub-service/src/test/**",
      "tests/**",
      ...TESTS,
      "*.config.{ts,js,mjs}",
    ],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message:
            "Read configuration at an entry only: the app's env() (app/utils/env.server.ts) or the engine's EngineConfig (scrub-service/src/config.ts), passed down (decision 188).",
        },
      ],
    },
  },
  // the engine reaches the database by its package name
  { files: ["scrub-service/**"], rules: { "no-restricted-imports": ["error", { patterns: [DB_BY_NAME] }] } },
  // db/ is a package below both the app and the engine: it imports neither (its migration tests may)
  {
    files: ["db/**"],
    ignores: ["db/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["~/*", "**/app/*"], message: "db/ is below the app: it may not import it." },
            { group: ["scrub-service", "scrub-service/*", "**/scrub-service/*"], message: "db/ is below the engine: it may not import it (decision 193)." },
          ],
        },
      ],
    },
  },
);
