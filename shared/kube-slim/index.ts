/** Full Kubernetes objects → the slim shapes of shared/messages (shared by the watcher and simulate). */
export * from './build-node-views.ts'
export * from './slim-error.ts'
export * from './to-slim-node.ts'
export * from './to-slim-pdb.ts'
export * from './to-slim-pod.ts'
