/** The pipeline's vocabulary: read this folder first. */
export * from './alert.ts'
export * from './decision.ts'
export * from './envelope.ts'
export * from './kube.ts'
export * from './node-view.ts'
