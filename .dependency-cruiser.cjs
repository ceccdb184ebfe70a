// The map of docs/architecture.md ("Layout"), checked by `npm run lint` (depcruise --validate).
// Paths are resolved through tsconfig.json, so `@app/*` imports count as the libs they alias.
// A spec file is held to its folder's rules, except that any spec may use the test kits and
// fixtures under test/, and a lib's spec the other libs.
const SPEC = '\\.(spec|redis-spec|pg-spec|cluster-spec|e2e-spec)\\.ts$';
const CORE = { dependencyTypes: ['core'] };

/** `from` may import no lib but `allowed` (besides itself); a spec may use any lib. */
const libOnly = (lib, allowed) => ({
  name: `${lib}-imports`,
  comment: `libs/${lib} may import ${allowed.length ? allowed.map((l) => `@app/${l}`).join(', ') : 'no other lib'}`,
  severity: 'error',
  from: { path: `^libs/${lib}/`, pathNot: SPEC },
  to: { path: '^libs/', pathNot: [`^libs/${lib}/`, ...allowed.map((l) => `^libs/${l}/`)] },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import cycle, type-only imports included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'libs-below-everything',
      comment: 'libs know nothing of the apps, the tools, the bench or the walkthrough',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^(apps|tools|bench|walkthrough)/' },
    },
    {
      name: 'test-kits-in-specs-only',
      comment: 'only specs use the test kits and fixtures',
      severity: 'error',
      from: { pathNot: ['^test/', SPEC] },
      to: { path: '^test/' },
    },
    libOnly('errors', []),
    libOnly('contract', ['errors', 'lock']),
    {
      name: 'contract-lock-types-only',
      comment: '@app/contract takes one type from @app/lock, erased when the page is bundled',
      severity: 'error',
      from: { path: '^libs/contract/' },
      to: { path: '^libs/lock/', dependencyTypesNot: ['type-only'] },
    },
    libOnly('lock', ['errors']),
    libOnly('stock', ['contract', 'errors']),
    libOnly('redis-stock', ['stock', 'contract', 'errors']),
    libOnly('apps-common', ['errors']),
    {
      name: 'apps-common-for-apps',
      comment: 'what both apps share: imported by apps/* only',
      severity: 'error',
      from: { pathNot: '^(apps|libs/apps-common)/' },
      to: { path: '^libs/apps-common/' },
    },
    {
      name: 'api-imports',
      comment: 'apps/api: every lib; never the lab, bench, tools or walkthrough',
      severity: 'error',
      from: { path: '^apps/api/' },
      to: { path: '^(apps/lab|bench|tools|walkthrough)/' },
    },
    {
      name: 'lab-imports',
      comment: 'apps/lab: never libs/stock, tools/stack (it reaches the control endpoint over HTTP), bench or the api',
      severity: 'error',
      from: { path: '^apps/lab/' },
      to: { path: '^(libs/stock|apps/api|bench|tools)/' },
    },
    {
      name: 'page-imports',
      comment: "the page: @app/contract and the walkthrough's browser-safe files",
      severity: 'error',
      from: { path: '^apps/lab/page/', pathNot: SPEC },
      to: {
        path: '^(libs|walkthrough|apps/lab/src)/',
        pathNot: [
          '^libs/contract/',
          '^walkthrough/(scenario|step|walkthrough\\.errors)\\.ts$',
          '^walkthrough/report/format\\.ts$',
          '^walkthrough/timeline/',
        ],
      },
    },
    {
      name: 'browser-safe',
      comment: "nothing of Node where the page bundles it: the page, @app/contract, the walkthrough's shared files",
      severity: 'error',
      from: {
        path: '^(apps/lab/page/|libs/contract/|walkthrough/(scenario|step|walkthrough\\.errors)\\.ts$|walkthrough/report/format\\.ts$|walkthrough/timeline/)',
        pathNot: SPEC,
      },
      to: CORE,
    },
    {
      name: 'stack-stands-alone',
      comment: 'tools/stack: no project code beyond itself (it speaks to the replicas over HTTP)',
      severity: 'error',
      from: { path: '^tools/stack/', pathNot: SPEC },
      to: { path: '^(apps|libs|bench|walkthrough|test|tools/(?!stack/))' },
    },
    {
      name: 'report-kit-stands-alone',
      comment: 'tools/report: text tables, formats, the line chart, the progress line; no project code beyond itself',
      severity: 'error',
      from: { path: '^tools/report/', pathNot: SPEC },
      to: { path: '^(apps|libs|bench|walkthrough|test|tools/(?!report/))' },
    },
    {
      name: 'bench-imports',
      comment: 'bench: the libs, tools/stack and tools/report only',
      severity: 'error',
      from: { path: '^bench/' },
      to: { path: '^(apps|walkthrough|tools/(?!(stack|report)/))' },
    },
    {
      name: 'walkthrough-imports',
      comment: 'walkthrough: the libs, tools/stack, tools/docs and tools/report',
      severity: 'error',
      from: { path: '^walkthrough/' },
      to: { path: '^(apps|bench|tools/(?!(stack|docs|report)/))' },
    },
    {
      name: 'tools-imports',
      comment: 'tools: never the apps or the walkthrough (the walkthrough imports tools/docs)',
      severity: 'error',
      from: { path: '^tools/' },
      to: { path: '^(apps|walkthrough)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|\\.stack)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
