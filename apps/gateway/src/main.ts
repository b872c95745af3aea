// First: tracing patches modules as they load.
import { tracing } from './instrument';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { migrateOrCheck } from '@starsgate/db';
import {
  onTerminationSignals,
  redactUrl,
  refuseMemoryDumps,
  runMain,
  startTracesAtThisServer,
} from '@starsgate/platform';
import { loadGatewayConfig } from './config';
import { createGateway } from './create-gateway';
import { answerMalformedRequests } from './http/malformed-requests';

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  refuseMemoryDumps(config.production);
  await migrateOrCheck(config.databaseUrl, config.databasePooler);
  const gateway = createGateway(config);
  const { logger } = gateway.deps;

  // Two listeners: the public one, and the operator one that the public ingress never routes (docs/security.md, attack 15).
  const publicServer: Server = gateway.app.listen(config.port, config.host);
  const adminServer: Server = gateway.adminApp.listen(config.adminPort, config.adminHost);
  // Public requests start their own traces, linked to any the client names (docs/security.md, attack 23).
  if (!config.trustClientTraceContext) startTracesAtThisServer(publicServer);
  answerMalformedRequests(publicServer, gateway.app);
  answerMalformedRequests(adminServer, gateway.adminApp);
  const servers = [publicServer, adminServer];
  await Promise.all(servers.map((server) => once(server, 'listening')));
  logger.info('gateway listening', {
    port: config.port,
    admin_port: config.adminPort,
    host: config.host,
    admin_host: config.adminHost,
    database: redactUrl(config.databaseUrl),
    network: config.network,
    admin_api:
      config.adminTokens.length > 0
        ? `/admin/api on port ${config.adminPort}`
        : 'disabled (STARSGATE_ADMIN_TOKENS unset)',
  });

  const shutdown = async (signal: string): Promise<void> => {
    logger.info('draining', { signal });
    gateway.state.draining = true;
    const deadline = setTimeout(() => {
      logger.warn('shutdown deadline reached: closing remaining connections');
      for (const server of servers) server.closeAllConnections();
    }, config.shutdownTimeoutMs).unref();
    // Stop accepting; idle keep-alive sockets close now, busy ones after their response.
    const closed = servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
    for (const server of servers) server.closeIdleConnections();
    await Promise.all(closed);
    clearTimeout(deadline);
    await gateway.close();
    await tracing?.shutdown().catch((error: unknown) => logger.warn('trace export at shutdown failed', { error }));
    logger.info('stopped');
    logger.end();
  };
  onTerminationSignals(logger, shutdown);
}

runMain(main);
