// Every jest worker gets its own Redis database so that a test that flushes Redis
// cannot disturb a test running in the other worker.
const worker = Number(process.env.JEST_WORKER_ID || '1');
// TEST_REDIS_BASE lets two test runs on one machine use separate Redis servers.
const redisBase = process.env.TEST_REDIS_BASE || 'redis://127.0.0.1:6379';
process.env.REDIS_URL = process.env.TEST_REDIS_URL || `${redisBase}/${worker % 16}`;
process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'silent';
process.env.NODE_ENV = 'test';
