// Five projects. `npm test` runs three: pure logic (parallel), real Redis (parallel workers sharing one
// private server, each spec in its own keys; a spec that freezes or stops a server starts its own; a
// `.pg-spec` starts a PostgreSQL of its own), and
// end to end on the real stack: each strategy's failure and its fix, and the API's contract (run in band:
// they share one stack). `npm run test:all` adds the Redis specs again on a private Redis Cluster and the
// long end-to-end suites (`e2e-slow`: faults, failover, soak, bench, the whole walkthrough, the lab page
// in a browser, the stack's own commands), run in band with `e2e` on the same stack.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
  },
];
const common = {
  transform: { '^.+\\.ts$': swc },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testEnvironment: 'node',
  moduleNameMapper: {
    '^@app/contract(|/.*)$': '<rootDir>/libs/contract/src$1',
    '^@app/apps-common(|/.*)$': '<rootDir>/libs/apps-common/src$1',
    '^@app/errors(|/.*)$': '<rootDir>/libs/errors/src$1',
    '^@app/redis-stock(|/.*)$': '<rootDir>/libs/redis-stock/src$1',
    '^@app/lock(|/.*)$': '<rootDir>/libs/lock/src$1',
    '^@app/stock(|/.*)$': '<rootDir>/libs/stock/src$1',
  },
};
// The long end-to-end suites, each repeating at length what a faster spec already proves, or testing
// more than a strategy: the fault suites and failover, the soak, the bench and the lock bench, the
// whole walkthrough, the lab page in Chromium and the lab without a control endpoint, graceful
// shutdown, and the stack's own commands.
const SLOW_E2E_NAMES = [
  'chaos',
  'holds-faults',
  'named-faults',
  'sold-out-memo',
  'cluster',
  'wait-replicas-health',
  'soak',
  'bench',
  't0-bench',
  'lock-bench',
  'walkthrough',
  'lab-page',
  'lab-scheduler',
  'lab-room',
  'lab-compose',
  'shutdown',
  'stack',
  'stack-up-down',
];
const SLOW_E2E = `/test/e2e/(${SLOW_E2E_NAMES.join('|')})\\.e2e-spec\\.ts$`;
const e2e = {
  ...common,
  globalSetup: '<rootDir>/test/e2e/global-setup.ts',
  globalTeardown: '<rootDir>/test/e2e/global-teardown.ts',
};
module.exports = {
  testTimeout: 120000, // Jest 30 does not apply a project's testTimeout; stack operations take seconds
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,bench,tools,walkthrough}/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'redis',
      testMatch: ['<rootDir>/{libs,bench,tools}/**/*.{redis,pg}-spec.ts'],
      globalSetup: '<rootDir>/test/redis/global-setup.ts',
      globalTeardown: '<rootDir>/test/redis/global-teardown.ts',
    },
    {
      // The lock contract and the Lua specs again, on a private Redis Cluster (three masters).
      ...common,
      displayName: 'redis-cluster',
      testMatch: [
        '<rootDir>/libs/lock/src/strategies/lock-contract.redis-spec.ts',
        '<rootDir>/libs/lock/src/scripts/lua-scripts.redis-spec.ts',
        '<rootDir>/libs/redis-stock/src/redis-stock.redis-spec.ts',
        '<rootDir>/libs/redis-stock/src/order-stream.redis-spec.ts',
        '<rootDir>/libs/redis-stock/src/order-dead-letter.redis-spec.ts',
        '<rootDir>/libs/redis-stock/src/order-epochs.redis-spec.ts',
        '<rootDir>/libs/redis-stock/src/room/room.redis-spec.ts',
        '<rootDir>/libs/**/*.cluster-spec.ts',
      ],
      globalSetup: '<rootDir>/test/redis-cluster/global-setup.ts',
      globalTeardown: '<rootDir>/test/redis-cluster/global-teardown.ts',
    },
    { ...e2e, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/*.e2e-spec.ts'], testPathIgnorePatterns: [SLOW_E2E] },
    { ...e2e, displayName: 'e2e-slow', testRegex: SLOW_E2E },
  ],
};
