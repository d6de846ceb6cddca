# BTalk: one image for every instance (multi-stage, non-root, Node.js 24).
#   docker build -t btalk .
#   docker run -p 8080:8080 -v btalk-data:/data --env-file btalk.env btalk
# The server runs its TypeScript with Node's type stripping: no compile step, only the web build.
# docs/operations.md says what the CI run tests of this file (nothing: no Docker engine there).

# --- the workspace's package files, which both install stages start from ---
FROM node:24-bookworm-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/

# --- build: every package, then the web app's static files (with their .br/.gz copies) ---
FROM manifests AS build
# npm install, not npm ci: see scripts/node.sh (the lock file lacks other platforms' optional packages).
RUN npm install --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/contracts packages/contracts
COPY apps/web apps/web
RUN npm run build -w apps/web

# --- runtime packages: the server's dependencies only ---
FROM manifests AS deps
RUN npm install --no-audit --no-fund --omit=dev --workspace apps/server --workspace packages/contracts

# --- the image ---
FROM node:24-bookworm-slim
# pg_dump / pg_restore for `npm run backup` and `npm run restore` on PostgreSQL.
RUN apt-get update \
  && apt-get install -y --no-install-recommends postgresql-client tini \
  && rm -rf /var/lib/apt/lists/* \
  && groupadd --system btalk && useradd --system --gid btalk --home-dir /app --shell /usr/sbin/nologin btalk \
  && mkdir -p /data && chown btalk:btalk /data && chmod 0700 /data
WORKDIR /app
ENV BTALK_ENV=production \
    NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    WEB_DIST=/app/apps/web/dist
# The installed tree (node_modules, with the workspace links @btalk/* -> their folders), then sources.
COPY --from=deps /app ./
COPY packages/contracts packages/contracts
COPY apps/server apps/server
COPY scripts scripts
COPY --from=build /app/apps/web/dist apps/web/dist
USER btalk
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# tini forwards SIGTERM to Node, so `docker stop` drains the instance (docs/operations.md).
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--experimental-strip-types", "--disable-warning=ExperimentalWarning", "apps/server/src/main.ts"]
