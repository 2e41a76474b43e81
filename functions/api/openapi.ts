import * as z from 'zod'
import { FormatSchema } from '../../shared/alerts/subscription.ts'
import { AlertKindSchema, SeveritySchema } from '../../shared/messages/alert.ts'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: object) => ({ content: { 'application/json': { schema } } })
const errors = {
  '400': { description: 'Invalid request: every offending field named', ...json(ref('ValidationError')) },
  '401': { description: 'Missing or wrong bearer token', ...json(ref('Error')) },
}
const notFound = { '404': { description: 'No such subscription', ...json(ref('Error')) } }
const idParam = [
  { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' } },
]

const filters = {
  type: 'object',
  properties: {
    severities: { type: 'array', items: { type: 'string', enum: SeveritySchema.options } },
    kinds: { type: 'array', items: { type: 'string', enum: AlertKindSchema.options } },
    zones: { type: 'array', items: { type: 'string' } },
    namespaces: { type: 'array', items: { type: 'string' } },
    nodeSelector: { type: 'object', description: 'Kubernetes label selector over the node labels' },
  },
}
const specProperties = {
  url: { type: 'string', format: 'uri' },
  secretRef: {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, key: { type: 'string', default: 'signingKey' } },
  },
  format: { type: 'string', enum: FormatSchema.options, default: 'cloudevents' },
  filters,
  sendResolved: { type: 'boolean', default: true },
  repeatInterval: { type: 'string', default: '4h', pattern: '^([0-9]+(ms|s|m|h))+$' },
}

/** OPENAPI is the api's OpenAPI 3.1 description, served at GET /openapi.json; a test checks it lists exactly the app's routes. */
export const OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'nodewarden api',
    version: '1.0.0',
    description: 'Alert subscriptions (AlertSubscription custom resources), health and metrics.',
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
      ValidationError: {
        type: 'object',
        required: ['error', 'issues'],
        properties: {
          error: { type: 'string' },
          issues: {
            type: 'array',
            items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
          },
        },
      },
      SubscriptionRequest: {
        type: 'object',
        required: ['url'],
        description:
          'Give exactly one of secretRef (an existing Secret) or signingKey (stored in a generated Secret, never returned).',
        properties: {
          name: { type: 'string' },
          ...specProperties,
          signingKey: { type: 'string', minLength: 16, writeOnly: true },
        },
      },
      Subscription: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          namespace: { type: 'string' },
          ...specProperties,
          createdAt: { type: 'string' },
          notifiedAlerts: { type: 'integer' },
        },
      },
      TestResult: {
        type: 'object',
        properties: {
          delivered: { type: 'boolean' },
          outcome: { type: 'string', enum: ['delivered', 'retryable', 'permanent'] },
          status: { type: 'integer' },
          reason: { type: 'string' },
          durationMs: { type: 'integer' },
        },
      },
    },
  },
  security: [{ bearer: [] }],
  paths: {
    '/healthz': {
      get: {
        summary: 'Liveness',
        security: [],
        responses: { '200': { description: 'OK', ...json({ type: 'object' }) } },
      },
    },
    '/openapi.json': {
      get: { summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI 3.1' } } },
    },
    '/metrics': {
      get: {
        summary: 'Prometheus metrics',
        responses: { '200': { description: 'text/plain; version=0.0.4' }, ...errors },
      },
    },
    '/subscriptions': {
      get: {
        summary: 'List subscriptions',
        responses: {
          '200': {
            description: 'OK',
            ...json({ type: 'object', properties: { items: { type: 'array', items: ref('Subscription') } } }),
          },
          ...errors,
        },
      },
      post: {
        summary: 'Create a subscription',
        requestBody: { required: true, ...json(ref('SubscriptionRequest')) },
        responses: {
          '201': { description: 'Created', ...json(ref('Subscription')) },
          '409': { description: 'Name taken', ...json(ref('Error')) },
          ...errors,
        },
      },
    },
    '/subscriptions/{id}': {
      get: {
        summary: 'Get a subscription',
        parameters: idParam,
        responses: { '200': { description: 'OK', ...json(ref('Subscription')) }, ...errors, ...notFound },
      },
      put: {
        summary: 'Replace a subscription',
        parameters: idParam,
        requestBody: { required: true, ...json(ref('SubscriptionRequest')) },
        responses: {
          '200': { description: 'OK', ...json(ref('Subscription')) },
          '409': { description: 'Changed meanwhile', ...json(ref('Error')) },
          ...errors,
          ...notFound,
        },
      },
      delete: {
        summary: 'Delete a subscription',
        parameters: idParam,
        responses: { '204': { description: 'Deleted' }, ...errors, ...notFound },
      },
    },
    '/subscriptions/{id}/test': {
      post: {
        summary: 'Send a signed test alert now and return the delivery result',
        parameters: idParam,
        responses: { '200': { description: 'Result', ...json(ref('TestResult')) }, ...errors, ...notFound },
      },
    },
  },
} as const

/** IdParamSchema validates the `{id}` path parameter (a subscription's DNS-label name). */
export const IdParamSchema = z.object({
  id: z
    .string()
    .max(63)
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'not a subscription id'),
})
