import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@starsgate/platform';
import type { GatewayMetrics } from '../observability/metrics';
import { levelEnabled } from './level-enabled';

/** Route template of the matched handler, so metrics and logs never carry ids. */
export function routeTemplate(req: Request): string {
  const route = (req.route as { path?: string } | undefined)?.path;
  return route ?? 'unmatched';
}

export function accessLog(metrics: GatewayMetrics, logger: Logger) {
  const httpEnabled = levelEnabled(logger, 'http');
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeTemplate(req);
      metrics.httpDuration.observe(
        { method: req.method, route, status_class: `${Math.floor(res.statusCode / 100)}xx` },
        seconds,
      );
      if (httpEnabled())
        req.log.http('request', {
          method: req.method,
          route,
          status: res.statusCode,
          duration_ms: Math.round(seconds * 1000),
        });
    });
    next();
  };
}
