import express, { type Request, type Response } from 'express';
import { parseCookies } from './cookies';
import { FragmentErrors } from './errors';
import { phpJson } from './html';
import { checkTonProofAuth, logIn, logOut, tonLogOut } from './methods/auth';
import { confirmReq } from './methods/confirm';
import {
  type CallContext,
  HANG,
  type MethodHandler,
  type MethodResult,
  type SimulatorContext,
} from './methods/context';
import { allPacks } from './products/registry';
import type { CallCounter } from './stats';

/** The methods all products share; each product's own are in its pack (products/*.ts). */
const SHARED_METHODS: Record<string, MethodHandler> = {
  confirmReq,
  logIn,
  checkTonProofAuth,
  logOut,
  tonLogOut,
};

let methods: Record<string, MethodHandler> | undefined;
/** Every product's methods, then the shared ones (built on first call: see products/registry.ts). */
export function methodHandlers(): Record<string, MethodHandler> {
  methods ??= {
    ...Object.fromEntries(allPacks().flatMap((pack) => Object.entries(pack.methods))),
    ...SHARED_METHODS,
  };
  return methods;
}

/** Methods that may run on a dead login (they are how one logs in again). */
const LOGIN_METHODS = new Set(['logIn', 'checkTonProofAuth', 'logOut', 'tonLogOut']);

function formFields(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof body !== 'object' || body === null) return out;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof last === 'string') out[key] = last;
  }
  return out;
}

function sendJson(res: Response, value: unknown): void {
  res.status(200).type('application/json').send(phpJson(value));
}

/** `POST /api?hash=…` with form-encoded `method` + fields (docs/fragment-protocol.md §3, §5). */
export function createApiHandler(sim: SimulatorContext, counter: CallCounter) {
  const urlencoded = express.urlencoded({ extended: false, limit: '256kb' });
  return [
    urlencoded,
    async (req: Request, res: Response): Promise<void> => {
      const body = formFields(req.body);
      const method = body['method'] ?? '';
      counter.count(method || '(none)');
      if (await sim.faults.apply(method, '*', req, res)) return;

      const cookies = parseCookies(req.headers.cookie);
      const session = sim.sessions.get(cookies['stel_ssid']);
      const hash = typeof req.query['hash'] === 'string' ? req.query['hash'] : undefined;
      const cfg = sim.config();
      if (!session || !sim.sessions.checkHash(session, hash)) {
        sendJson(res, {
          error: session && !cfg.faults.sessionExpired ? cfg.faults.badHashText : FragmentErrors.accessDenied,
        });
        return;
      }
      const auth = sim.sessions.auth(cookies);
      if (auth.dead && (cfg.faults.sessionExpired || !LOGIN_METHODS.has(method))) {
        sendJson(res, { error: FragmentErrors.accessDenied });
        return;
      }
      const handlers = methodHandlers();
      const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
      if (!handler) {
        sendJson(res, { error: FragmentErrors.unknownMethod });
        return;
      }
      const call: CallContext = { sim, session, auth, cookies, body, res, host: req.get('host') ?? '' };
      let result: MethodResult;
      try {
        result = await handler(call);
      } catch (err) {
        res
          .status(500)
          .type('application/json')
          .send(phpJson({ error: 'Internal error', detail: err instanceof Error ? err.message : String(err) }));
        return;
      }
      if (result === HANG) {
        sim.faults.hang(res);
        return;
      }
      sendJson(res, result);
    },
  ] as const;
}
