# One image for every process: the command picks gateway, worker or sandbox.
FROM node:20-bookworm-slim AS base
WORKDIR /app
ENV NODE_ENV=production TURBO_TELEMETRY_DISABLED=1

COPY package.json package-lock.json turbo.json tsconfig.base.json ./
COPY apps/gateway/package.json apps/gateway/
COPY apps/worker/package.json apps/worker/
COPY apps/sandbox/package.json apps/sandbox/
COPY packages/domain/package.json packages/domain/
COPY packages/db/package.json packages/db/
COPY packages/platform/package.json packages/platform/
COPY packages/ton/package.json packages/ton/
COPY packages/fragment/package.json packages/fragment/
# tsx runs the TypeScript sources directly; dev dependencies stay out of the image.
RUN npm ci --omit=dev --no-audit --no-fund && npm install --no-save tsx@4 && npm cache clean --force

COPY apps apps
COPY packages packages
USER node
EXPOSE 8080
CMD ["node", "--import", "tsx", "apps/gateway/src/main.ts"]
