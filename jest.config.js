// Four projects: pure logic (parallel), real Redis (parallel workers sharing one private server, each
// spec in its own keys; a spec that freezes or stops a server starts its own), the Redis specs again
// on a private Redis Cluster, and end to end on the real stack (run in band: they share one stack and
// inject faults).
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
module.exports = {
  testTimeout: 120000, // Jest 30 does not apply a project's testTimeout; stack operations take seconds
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,bench,tools,walkthrough}/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'redis',
      testMatch: ['<rootDir>/{libs,bench,tools}/**/*.redis-spec.ts'],
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
        '<rootDir>/libs/redis-stock/src/order-epochs.redis-spec.ts',
        '<rootDir>/libs/**/*.cluster-spec.ts',
      ],
      globalSetup: '<rootDir>/test/redis-cluster/global-setup.ts',
      globalTeardown: '<rootDir>/test/redis-cluster/global-teardown.ts',
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/e2e/global-setup.ts',
      globalTeardown: '<rootDir>/test/e2e/global-teardown.ts',
      testTimeout: 120000,
    },
  ],
};
