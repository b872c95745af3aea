import express from 'express';
import request from 'supertest';
import { mountProcessMetrics } from '../src/process-metrics';

test('GET /metrics serves the Node.js process series that npm run soak reads from every process', async () => {
  const app = express();
  mountProcessMetrics(app);
  const response = await request(app).get('/metrics');
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain/);
  for (const series of [
    'process_resident_memory_bytes',
    'nodejs_heap_size_used_bytes',
    'nodejs_eventloop_lag_p50_seconds',
    'nodejs_eventloop_lag_p99_seconds',
    'nodejs_eventloop_lag_max_seconds',
  ])
    expect(response.text).toMatch(new RegExp(`^${series} \\d`, 'm'));
});
