// BUILD_DIR lets parallel builds (e.g. several e2e runs) use separate output folders.
const out = process.env.BUILD_DIR ?? "build";

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  // The engine and the database are workspace packages whose exports are TypeScript sources: bundled into the
  // server build like the app's own code (as when they were imported by path), never loaded by Node from node_modules.
  serverDependenciesToBundle: [/^scrub-service(\/|$)/, /^db(\/|$)/],
  serverBuildPath: `${out}/index.js`,
  assetsBuildDirectory: `${out}/public/build`,
  publicPath: "/build/",
  postcss: true,
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
