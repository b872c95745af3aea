# syntax=docker/dockerfile:1
# One Dockerfile, one target per process:
#   docker build --target gateway -t starsgate-gateway .     (also: worker, sandbox, migrate, cli)
# Every target runs the esbuild bundle of its app (`node …/dist/….js`, never tsx; browser pages are
# bundled into dist/ at build time too) with only the npm packages that bundle loads (never esbuild,
# TypeScript or tsx: test/deployment/runtime-packages.test.ts), as the unprivileged `node` user,
# under tini so SIGTERM reaches Node and the app drains. Build arguments VERSION, REVISION, CREATED and SOURCE_URL fill the OCI labels
# (VERSION must be the root package.json's `version`, the service's one source: the build refuses another):
#   docker build --target gateway --build-arg VERSION=$(node -p 'require("./package.json").version') --build-arg REVISION=$(git rev-parse HEAD) \
#     --build-arg CREATED=$(date -u +%Y-%m-%dT%H:%M:%SZ) --build-arg SOURCE_URL=<repository URL> .

# Exact Node release, the one CI tests on (.node-version: bump both together, or pin a digest:
# node:24.21.0-bookworm-slim@sha256:…). Node 24 is the active LTS line; 20 reached its end of life in April 2026.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS node-base
ENV TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app

# Manifests only: the dependency layers below stay cached until a package.json or the lock changes.
FROM node-base AS manifests
COPY package.json package-lock.json ./
COPY apps/cli/package.json apps/cli/
COPY apps/gateway/package.json apps/gateway/
COPY apps/worker/package.json apps/worker/
COPY apps/sandbox/package.json apps/sandbox/
COPY packages/config/package.json packages/config/
COPY packages/db/package.json packages/db/
COPY packages/domain/package.json packages/domain/
COPY packages/fragment/package.json packages/fragment/
COPY packages/platform/package.json packages/platform/
COPY packages/sdk/package.json packages/sdk/
COPY packages/sdk-python/package.json packages/sdk-python/
COPY packages/ton/package.json packages/ton/
COPY tools/bench/package.json tools/bench/
COPY tools/chaos/package.json tools/chaos/
COPY tools/fuzz/package.json tools/fuzz/
COPY tools/soak/package.json tools/soak/
COPY tools/stack/package.json tools/stack/

# The build: every dependency, then `turbo run build` (one esbuild bundle per app into its dist/).
FROM manifests AS build
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.base.json turbo.json ./
COPY scripts/build scripts/build
COPY packages packages
COPY apps apps
RUN npx turbo run build --output-logs=errors-only
# The service's version has one source, the root package.json: a VERSION label that says otherwise is refused.
ARG VERSION=0.0.0-dev
RUN node -e "const v=require('./package.json').version; if (process.argv[1] !== '0.0.0-dev' && process.argv[1] !== v) { console.error('VERSION ' + process.argv[1] + ' is not package.json ' + v); process.exit(1); }" "$VERSION"

# Production dependencies only, then each app's own runtime tree cut out of them.
FROM manifests AS runtime-deps
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY scripts/build scripts/build
# npm's postinstall, which --ignore-scripts skips: the bundles load @ton/crypto from these
# node_modules, so its build-time patch goes here (packages/ton/patches/README.md).
COPY packages/ton/patches packages/ton/patches
RUN node scripts/build/patch-dependencies.mjs \
 && node scripts/build/copy-runtime-deps.mjs apps/gateway /deps/gateway \
 && node scripts/build/copy-runtime-deps.mjs apps/worker /deps/worker \
 && node scripts/build/copy-runtime-deps.mjs apps/sandbox /deps/sandbox \
 && node scripts/build/copy-runtime-deps.mjs packages/db /deps/migrate \
 && node scripts/build/copy-runtime-deps.mjs apps/cli /deps/cli

FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
# Re-declared to use the global value in this stage's label.
ARG NODE_IMAGE
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG CREATED=unknown
ARG SOURCE_URL=unknown
LABEL org.opencontainers.image.vendor="starsgate" \
      org.opencontainers.image.source="${SOURCE_URL}" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.base.name="${NODE_IMAGE}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}"
ENV NODE_ENV=production NODE_OPTIONS=--enable-source-maps
WORKDIR /app
# Code and dependencies stay owned by root: the app user can read them, not change them.
# No core dumps (RLIMIT_CORE 0, inherited by node): a dump of the worker would hold wallet keys,
# one of either service its key material. The apps refuse heap-snapshot, report and inspector
# flags in production (docs/security.md). Pods run this ENTRYPOINT (no `command` overrides it).
ENTRYPOINT ["/bin/sh", "-c", "ulimit -c 0 && exec /usr/bin/tini -- \"$@\"", "starsgate"]

FROM runtime AS gateway
LABEL org.opencontainers.image.title="starsgate-gateway" \
      org.opencontainers.image.description="starsgate HTTP API: accepts purchases and answers reads"
COPY --from=runtime-deps /deps/gateway/node_modules ./node_modules
# dist/ holds the bundle and the operator dashboard, built with it (dist/admin-ui).
COPY --from=build /app/apps/gateway/dist ./apps/gateway/dist
USER node
# Heap sizes for the service, not the machine (tools/stack/src/heap-flags.ts: why and measured).
ENV NODE_OPTIONS="--enable-source-maps --max-semi-space-size=8 --max-old-space-size=256"
# PORT: the public API; ADMIN_PORT: the operator listener (/metrics, /admin, /admin/api), for monitoring only.
ENV PORT=8080 ADMIN_PORT=8081
EXPOSE 8080
EXPOSE 8081
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "apps/gateway/dist/main.js"]

FROM runtime AS worker
LABEL org.opencontainers.image.title="starsgate-worker" \
      org.opencontainers.image.description="starsgate purchase worker: the BullMQ consumer and the sweeper"
COPY --from=runtime-deps /deps/worker/node_modules ./node_modules
COPY --from=build /app/apps/worker/dist ./apps/worker/dist
USER node
ENV NODE_OPTIONS="--enable-source-maps --max-semi-space-size=8 --max-old-space-size=256"
ENV WORKER_METRICS_PORT=9464
EXPOSE 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.WORKER_METRICS_PORT||9464)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "apps/worker/dist/main.js"]

FROM runtime AS sandbox
LABEL org.opencontainers.image.title="starsgate-sandbox" \
      org.opencontainers.image.description="starsgate offline upstream: local TON chain and Fragment simulator (never production)"
COPY --from=runtime-deps /deps/sandbox/node_modules ./node_modules
# dist/ holds the bundle and the demo shop page, built with it (dist/checkout).
COPY --from=build /app/apps/sandbox/dist ./apps/sandbox/dist
RUN mkdir -p /data && chown node:node /data
USER node
ENV SANDBOX_PORT=8090 SANDBOX_HOST=0.0.0.0 SANDBOX_DATA_DIR=/data/sandbox
VOLUME ["/data"]
EXPOSE 8090
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.SANDBOX_PORT||8090)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "apps/sandbox/dist/main.js"]

FROM runtime AS migrate
LABEL org.opencontainers.image.title="starsgate-migrate" \
      org.opencontainers.image.description="starsgate database migrations (one-shot; takes a PostgreSQL advisory lock)"
COPY --from=runtime-deps /deps/migrate/node_modules ./node_modules
COPY --from=build /app/packages/db/dist ./packages/db/dist
USER node
HEALTHCHECK NONE
CMD ["node", "packages/db/dist/migrate.js"]

# The operator's tools, so no laptop needs the master key or a route to production PostgreSQL:
#   docker run --rm --env-file worker.env starsgate-cli keys generate | keys rewrap | doctor | migrate
#   kubectl run / a Job: args [starsgate, keys, rewrap] (docs/deployment.md, "Operator tools in the cluster").
# `starsgate` (apps/cli/bin/starsgate.js) runs the CLI, `starsgate doctor` the worker's doctor bundle
# and `starsgate migrate` the migration runner, all three copied in beside it; the worker's runtime
# tree covers the doctor's packages (and the migration runner's), the CLI's its own.
FROM runtime AS cli
LABEL org.opencontainers.image.title="starsgate-cli" \
      org.opencontainers.image.description="starsgate operator tools: the starsgate CLI (keys, purchases, webhooks), the doctor and migrations"
COPY --from=runtime-deps /deps/worker/node_modules ./node_modules
COPY --from=runtime-deps /deps/cli/node_modules ./node_modules
COPY --from=build /app/apps/cli/dist ./apps/cli/dist
COPY --from=build /app/apps/cli/bin ./apps/cli/bin
COPY --from=build /app/apps/worker/dist ./apps/worker/dist
COPY --from=build /app/packages/db/dist ./packages/db/dist
RUN printf '#!/bin/sh\nexec node /app/apps/cli/bin/starsgate.js "$@"\n' > /usr/local/bin/starsgate \
 && chmod 755 /usr/local/bin/starsgate
USER node
HEALTHCHECK NONE
CMD ["starsgate", "--help"]
