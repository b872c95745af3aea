// Every jest worker process gets a Redis database of its own (redis-database.js), so that a
// test that flushes Redis cannot disturb a test running in another worker or another workspace.
const { claimRedisDatabase } = require('./redis-database');

// TEST_REDIS_BASE lets two test runs on one machine use separate Redis servers.
const redisBase = process.env.TEST_REDIS_BASE || 'redis://127.0.0.1:6379';
process.env.REDIS_URL = process.env.TEST_REDIS_URL || `${redisBase}/${claimRedisDatabase(redisBase)}`;
process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'silent';
process.env.NODE_ENV = 'test';
