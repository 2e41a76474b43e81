/**
 * Trigger: API Gateway HTTP API (v2) or REST (v1) events. Job: the subscription api, health,
 * metrics and OpenAPI document — the same hono app as `main.ts`. Output: HTTP responses.
 */
import { handle } from 'hono/aws-lambda'
import { createApp } from './app.ts'
import { createApiDeps, loadApiConfig } from './wiring.ts'

export const handler = handle(createApp(createApiDeps(loadApiConfig(process.env))))
