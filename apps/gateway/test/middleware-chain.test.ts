import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import request from 'supertest';
import { middlewareChain } from '../src/http/middleware-chain';
import { underPath } from '../src/http/under-path';

type Trace = { steps: string[] };

function appWith(handler: RequestHandler): express.Express {
  const app = express();
  app.use((req, _res, next) => {
    (req as Request & Trace).steps = [];
    next();
  });
  app.use(handler);
  app.use((req, res) => {
    res.json({ reached: 'route', steps: (req as Request & Trace).steps });
  });
  app.use((error: Error, req: Request, res: Response, _next: NextFunction) => {
    res.status(500).json({ reached: 'error handler', error: error.message, steps: (req as Request & Trace).steps });
  });
  return app;
}

const step =
  (name: string): RequestHandler =>
  (req, _res, next) => {
    (req as Request & Trace).steps.push(name);
    next();
  };

describe('middlewareChain', () => {
  it('runs its handlers in order, asynchronous ones included, then the next layer', async () => {
    const later: RequestHandler = (req, _res, next) => {
      setImmediate(() => {
        (req as Request & Trace).steps.push('later');
        next();
      });
    };
    const response = await request(appWith(middlewareChain(step('a'), later, step('b')))).get('/');
    expect(response.body).toEqual({ reached: 'route', steps: ['a', 'later', 'b'] });
  });

  it.each<[string, RequestHandler]>([
    ['passed to next', (_req, _res, next) => next(new Error('boom'))],
    [
      'thrown',
      () => {
        throw new Error('boom');
      },
    ],
    ['rejected', () => Promise.reject(new Error('boom'))],
  ])('an error %s skips the rest of the chain and reaches the error handler', async (_kind, failing) => {
    const response = await request(appWith(middlewareChain(step('a'), failing, step('b')))).get('/');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ reached: 'error handler', error: 'boom', steps: ['a'] });
  });

  it('a handler that answers ends the request there', async () => {
    const answer: RequestHandler = (_req, res) => {
      res.status(204).end();
    };
    const response = await request(appWith(middlewareChain(step('a'), answer, step('b')))).get('/');
    expect(response.status).toBe(204);
  });
});

describe('underPath', () => {
  const app = appWith(underPath('/api/v1', step('api')));

  it.each(['/api/v1', '/api/v1/', '/api/v1/purchases', '/API/V1/purchases', '/api/v1/purchases?x=1'])(
    'runs the handler for %s, as app.use("/api/v1", …) would',
    async (path) => {
      expect((await request(app).get(path)).body.steps).toEqual(['api']);
    },
  );

  it.each(['/', '/api', '/api/v10/purchases', '/api/v1x', '/livez', '/x/api/v1'])('skips it for %s', async (path) => {
    expect((await request(app).get(path)).body.steps).toEqual([]);
  });
});
