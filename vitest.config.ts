import { defineConfig } from 'vitest/config'

// One config for every test folder; integration and e2e tests start real peers on loopback,
// so they get a longer timeout than pure unit tests need.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The AWS SDK warns on Node 20 at every client creation; CI and dev run Node 20, Lambda runs 22.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
})
