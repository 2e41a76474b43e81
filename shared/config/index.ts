/** The policy document: schema, defaults, loaders. */
export * from './default-rules.ts'
export * from './duration.ts'
export * from './load-policy.ts'
export * from './policy-schema.ts'
