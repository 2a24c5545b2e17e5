# Cronbeat's agent, headless: the API, the monitor loop and the dashboard (docs/deploy.md).
#   docker build -t cronbeat .
#   docker run -d -p 8787:8787 -v cronbeat-data:/data cronbeat
# Base images are pinned to an exact Node release; pin the digest too (node:…@sha256:…) once you
# have pulled it, so a rebuild cannot change what runs.
#
# Only the npm registry (and Debian's packages, for the compiler) is needed: better-sqlite3 is
# compiled here against the image's own Node headers rather than downloaded prebuilt, and the
# run stage copies the compiled node_modules instead of installing anything.

# Build: the CLI bundle and the dashboard, with the dev dependencies (esbuild, vite).
FROM node:20.20.2-bookworm-slim AS build
WORKDIR /src
# The desktop shell is not built here: no Electron binary to download.
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY agent ./agent
COPY scripts ./scripts
COPY renderer ./renderer
RUN npm run build:agent && npm run build:renderer

# Dependencies: production only, from the lock file; better-sqlite3's addon compiled from source
# (build_from_source skips its prebuilt download; nodedir points node-gyp at the headers this
# image's Node ships, so it downloads none).
FROM node:20.20.2-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
ENV npm_config_build_from_source=true \
    npm_config_nodedir=/usr/local
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
    && npm rebuild better-sqlite3 \
    && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()" \
    && npm cache clean --force

# Run: the compiled dependencies and the bundle, as the unprivileged `node` user. Nothing is
# installed or downloaded in this stage.
FROM node:20.20.2-bookworm-slim
ENV NODE_ENV=production \
    CRONBEAT_DATA_DIR=/data
WORKDIR /app
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/dist/cronbeat.cjs /src/dist/cronbeat-full.cjs ./dist/
COPY --from=build /src/dist/renderer ./dist/renderer
RUN chmod 755 dist/cronbeat.cjs \
    && ln -s /app/dist/cronbeat.cjs /usr/local/bin/cronbeat \
    && mkdir -p /data \
    && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:8787/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["cronbeat"]
# Reached from other machines by the names given with --allow-host; behind a proxy add --trust-proxy.
CMD ["serve", "--host", "0.0.0.0", "--port", "8787", "--no-popups"]
