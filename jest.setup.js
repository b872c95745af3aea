// Every jest worker gets its own Redis database so that a test that flushes Redis
// cannot disturb a test running in the other worker.
const worker = Number(process.env.JEST_WORKER_ID || '1');
process.env.REDIS_URL = process.env.TEST_REDIS_URL || `redis://127.0.0.1:6379/${worker % 16}`;
process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'silent';
process.env.NODE_ENV = 'test';
