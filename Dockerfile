# syntax=docker/dockerfile:1
#
# One image for every Tollgate subcommand: `docker run <image> gateway|operator|console|recorder|…`.
#
# - build:   all dependencies (dev included), then `npm run build`: the compiled CLI in dist/ and the
#            console web app in console/web/dist.
# - deps:    production dependencies only, from the lock file, with no install scripts.
# - runtime: node, package.json, the two launcher files of bin/, dist/, the web app and the
#            production node_modules; nothing else (no sources, no TypeScript, no npm).
#
# The runtime image runs as a numeric non-root user and writes nothing outside /tmp, so it runs with
# a read-only root filesystem (the chart mounts an emptyDir at /tmp). It has no HEALTHCHECK: the
# chart's probes call each component's health endpoints.
#
# test/integration/build/image-tree.test.ts reads the runtime stage's COPY lines and the deps
# stage's install command from this file, assembles the same tree and starts each subcommand from it.

ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="tollgate" \
      org.opencontainers.image.description="Kubernetes-native gateway for model-provider APIs: keys, limits, metering and billing in USD" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.source="https://github.com/tollgate-dev/tollgate" \
      org.opencontainers.image.url="https://github.com/tollgate-dev/tollgate" \
      org.opencontainers.image.documentation="https://github.com/tollgate-dev/tollgate/blob/main/docs/install.md" \
      org.opencontainers.image.vendor="Tollgate" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}"
# npm, npx and corepack are not needed to run the CLI; leaving them out shrinks what an attacker
# could use inside the container.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /opt/yarn-* \
      /usr/local/bin/yarn /usr/local/bin/yarnpkg
ENV NODE_ENV=production \
    HOME=/tmp \
    TMPDIR=/tmp
WORKDIR /app
COPY package.json ./
COPY bin/tollgate.js bin/ensure-fresh-build.js ./bin/
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/console/web/dist ./console/web/dist
USER 10001:10001
EXPOSE 8080 8084 9090 9091 9092
ENTRYPOINT ["node", "bin/tollgate.js"]
CMD ["--help"]
