# The watcher shim's image: the self-contained `npm run build` bundle of functions/watcher/main.ts on
# a distroless Node 22 runtime (no shell, no npm, non-root uid 65532). Build from the repository root:
#   docker build -f infra/watcher.Dockerfile -t ghcr.io/nodewarden/watcher:0.1.0 .
FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-fund --no-audit --ignore-scripts
COPY tsconfig.json ./
COPY functions ./functions
COPY shared ./shared
COPY infra ./infra
RUN npx tsx infra/build.ts --only watcher

FROM gcr.io/distroless/nodejs22-debian12:nonroot
WORKDIR /app
COPY --from=build /src/dist/watcher/index.mjs ./index.mjs
USER 65532:65532
EXPOSE 8080
CMD ["index.mjs"]
