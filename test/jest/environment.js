/**
 * jest's node environment, plus: the throw-away databases a test file created (createTestDatabase
 * registers each on the file's global, its drop() unregisters it) and did not drop are dropped when
 * the file ends, after its own afterAll hooks: a beforeAll that failed or timed out, a test that
 * forgot. What a killed jest process leaves, `npm test` drops a day later (scripts/test/preflight.mjs).
 */
const { TestEnvironment } = require('jest-environment-node');
const { Client } = require('pg');

const TEST_DATABASES = Symbol.for('starsgate.testDatabases');
const ADMIN_URL = () => process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

class StarsgateTestEnvironment extends TestEnvironment {
  async teardown() {
    const names = [...(this.global[TEST_DATABASES] ?? [])];
    if (names.length > 0) {
      const admin = new Client({ connectionString: ADMIN_URL() });
      await admin.connect();
      try {
        for (const name of names)
          await admin.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    }
    await super.teardown();
  }
}

module.exports = StarsgateTestEnvironment;
