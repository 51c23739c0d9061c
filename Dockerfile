# syntax=docker/dockerfile:1
# The server and the web app in one image, run as `api` or `worker` (ROLE) beside PostgreSQL and an S3-compatible
# store: see compose.yaml and README.md › Running with containers.
#
# The base is a build argument so that a hospital builds on the public Debian image while a machine that reaches
# no image registry can build on a Debian made locally from Debian's packages (scripts/container-test.mjs).
ARG BASE_IMAGE=docker.io/library/debian:bookworm-slim

FROM ${BASE_IMAGE} AS deps
ENV DEBIAN_FRONTEND=noninteractive
# Debian's Node 18 and npm 9 only bootstrap: they install the Node 24 and npm 11 the project runs on (the npm
# registry's `node` package, the same runtime package.json pins). irstlm, sphinxbase-utils and the English
# pocketsphinx model build the clinical speech model here, so the run-time image needs none of the build tools.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates nodejs npm irstlm sphinxbase-utils pocketsphinx-en-us \
 && rm -rf /var/lib/apt/lists/*
ARG NODE_VERSION=24.21.0
ARG NPM_VERSION=11.19.1
# Where a proxy inspects TLS (many hospitals' networks), the npm registry's certificate is signed by the proxy's
# own authority: give its certificate as a build secret (docker build --secret id=ca,src=proxy-ca.pem). It is
# used for the downloads only and kept in no layer; without it Node warns once and uses the public authorities.
ENV NODE_EXTRA_CA_CERTS=/run/secrets/ca
# npm 9 will not install npm 11 for Node 18: Node 24 first (into /usr/local/bin, ahead on the PATH), then npm 11,
# by Debian's npm now running on Node 24.
RUN --mount=type=secret,id=ca npm install --global --no-audit --no-fund node@${NODE_VERSION}
RUN --mount=type=secret,id=ca npm install --global --no-audit --no-fund npm@${NPM_VERSION} \
 && node --version && npm --version
WORKDIR /app
COPY package.json package-lock.json ./
# The npm cache outlives the layer, so that a changed lock file downloads only what changed.
RUN --mount=type=secret,id=ca --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund

# Every dependency, the development ones too (the container test's stand-in S3 store runs from here).
FROM deps AS build
COPY . .
RUN npm run build \
 && npm run build:server \
 && node scripts/build-clinical-model.mjs \
 && rm -rf server/speech/build/work \
 && npm prune --omit=dev --no-audit --no-fund

FROM ${BASE_IMAGE}
ENV DEBIAN_FRONTEND=noninteractive
# What the server runs besides Node (scripts/lib/system-packages.mjs: RUNTIME_PACKAGES and OCR_PACKAGES): the local
# speech engine (ffmpeg, pocketsphinx and its English model, its Python binding for the long-lived decoders) and
# the reading of scanned PDFs (poppler, tesseract in the app's four languages). tini forwards signals, so that a
# stopping container finishes its requests (the server drains on SIGTERM) and reaps the processes it started.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates tini \
      ffmpeg pocketsphinx pocketsphinx-en-us python3-pocketsphinx \
      poppler-utils tesseract-ocr tesseract-ocr-por tesseract-ocr-deu tesseract-ocr-spa \
 && rm -rf /var/lib/apt/lists/*
# A user of its own, with no login and no write access to the code: only /data is its.
RUN groupadd --system --gid 10001 notes \
 && useradd --system --uid 10001 --gid notes --home-dir /data --no-create-home --shell /usr/sbin/nologin notes \
 && mkdir -p /data && chown notes:notes /data && chmod 700 /data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/.build ./.build
COPY --from=build /app/dist ./dist
# The server reads its migrations and prompts from server/src, and its speech scripts and model from server/speech.
COPY --from=build /app/server ./server
ENV NODE_ENV=production \
    PATH=/app/node_modules/.bin:$PATH \
    DATA_DIR=/data \
    WEB_DIST=/app/dist \
    HOST=0.0.0.0 \
    PORT=8080
USER notes
# The embedded database, key files, backups and stored files when no PostgreSQL or S3 store is set.
VOLUME ["/data"]
EXPOSE 8080
# /healthz answers once the database answers; a worker serves it too. Node's fetch: the image has no curl. No
# spaces in the script: podman's Docker-compatible API splits a check's arguments at spaces.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--enable-source-maps", ".build/server/src/main.js"]
