import { SQSClient } from '@aws-sdk/client-sqs'

export type SqsClientOptions = {
  region: string
  /** Local runs: the embedded server's address. Must be explicit — fauxqs queue-URL hosts do not resolve. */
  endpoint?: string
  /** SDK-level attempts; 1 by default because `shared/sqs/retry.ts` is the one retry policy. */
  maxAttempts?: number
}

/** createSqsClient builds an SQS client; with an endpoint it talks to that server with dummy credentials. */
export function createSqsClient(options: SqsClientOptions): SQSClient {
  const maxAttempts = options.maxAttempts ?? 1
  if (options.endpoint === undefined) return new SQSClient({ region: options.region, maxAttempts })
  return new SQSClient({
    region: options.region,
    endpoint: options.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts,
  })
}
