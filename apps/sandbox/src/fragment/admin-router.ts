import express, { type Request, type Response, type Router } from 'express';
import { defaultFaults, type FragmentSimulatorConfig, mergeInto, validateConfig } from './config';
import type { RecipientDirectory, RecipientEntry } from './directory';

export interface AdminDeps {
  config(): FragmentSimulatorConfig;
  setConfig(next: FragmentSimulatorConfig): void;
  directory: RecipientDirectory;
  stats(): unknown;
  orders(): unknown;
  payments(): unknown;
  receivers(): Record<string, string>;
}

function applyPatch(deps: AdminDeps, patch: unknown, at: 'root' | 'faults'): FragmentSimulatorConfig {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch))
    throw new Error('body must be a JSON object');
  const next = structuredClone(deps.config());
  mergeInto(
    at === 'root' ? (next as unknown as Record<string, unknown>) : (next.faults as unknown as Record<string, unknown>),
    patch as Record<string, unknown>,
  );
  if (!next.faults.methods) next.faults.methods = {};
  validateConfig(next);
  deps.setConfig(next);
  return next;
}

/**
 * Sandbox-only live control (mounted at /admin/fragment):
 * GET/PUT /config, GET/PUT /faults, POST /faults/reset, GET/PUT /directory,
 * GET /stats, GET /orders, GET /payments (payments seen on chain), GET /receivers.
 */
export function createAdminRouter(deps: AdminDeps): Router {
  const router = express.Router();
  router.use(express.json({ limit: '256kb' }));
  const guard = (fn: (req: Request, res: Response) => void) => (req: Request, res: Response) => {
    try {
      fn(req, res);
    } catch (err) {
      res.status(400).json({ error: err instanceof Error ? err.message : String(err) });
    }
  };
  router.get('/config', (_req, res) => {
    res.json(deps.config());
  });
  router.put(
    '/config',
    guard((req, res) => {
      const body = req.body as Record<string, unknown>;
      const next = applyPatch(deps, body, 'root');
      if (Array.isArray(body?.['directory'])) deps.directory.replace(body['directory'] as RecipientEntry[]);
      res.json(next);
    }),
  );
  router.get('/faults', (_req, res) => {
    res.json(deps.config().faults);
  });
  router.put(
    '/faults',
    guard((req, res) => {
      res.json(applyPatch(deps, req.body, 'faults').faults);
    }),
  );
  router.post('/faults/reset', (_req, res) => {
    const next = structuredClone(deps.config());
    next.faults = defaultFaults();
    deps.setConfig(next);
    res.json(next.faults);
  });
  router.get('/directory', (_req, res) => {
    res.json(deps.directory.list());
  });
  router.put(
    '/directory',
    guard((req, res) => {
      if (!Array.isArray(req.body)) throw new Error('body must be an array of recipient entries');
      deps.directory.replace(req.body as RecipientEntry[]);
      res.json(deps.directory.list());
    }),
  );
  router.get('/stats', (_req, res) => {
    res.json(deps.stats());
  });
  router.get('/orders', (_req, res) => {
    res.json(deps.orders());
  });
  router.get('/payments', (_req, res) => {
    res.json(deps.payments());
  });
  router.get('/receivers', (_req, res) => {
    res.json(deps.receivers());
  });
  return router;
}
