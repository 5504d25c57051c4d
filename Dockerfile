# syntax=docker/dockerfile:1
# One image for every process of the production topology (api, relay, projector, replay);
# docker-compose.yml picks the process with `command`.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY session-client/package.json session-client/
COPY engine/package.json engine/
COPY event-store/package.json event-store/
COPY projections/package.json projections/
COPY api/package.json api/
COPY web/package.json web/
COPY admin/package.json admin/
COPY testkit/package.json testkit/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
# The web app and admin console are static bundles the API serves at / and /admin/, built with the
# prerendered landing page and their brotli and gzip copies (scripts/build-apps.mjs).
RUN npm run build
RUN npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /app/.data/media && chown -R node:node /app/.data
USER node
EXPOSE 3000
CMD ["node", "--import", "tsx", "api/src/processes/api.ts"]
