FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY bin ./bin
COPY src ./src
COPY migrations ./migrations
COPY tsconfig.json ./
USER node
ENTRYPOINT ["node", "--max-semi-space-size=32", "--heap-growing-percent=50", "bin/syncdex.mjs"]
