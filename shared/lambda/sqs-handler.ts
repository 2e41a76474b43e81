import {
  BatchProcessor,
  EventType,
  processPartialResponse,
  SqsFifoPartialProcessorAsync,
} from '@aws-lambda-powertools/batch'
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda'
import type { Log } from '../log.ts'
import { type Envelope, MessageError, type MessageType, parseEnvelope } from '../messages/envelope.ts'
import type { QueueName } from '../sqs/config.ts'

/**
 * NonRetryableError marks a record whose processing can never succeed (e.g. its target is gone):
 * the handler logs it and acknowledges it, instead of letting SQS redeliver it into the DLQ.
 */
export class NonRetryableError extends Error {
  override name = 'NonRetryableError'
}

export type SqsHandler = (event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>

export type SqsHandlerOptions<T extends MessageType> = {
  queue: QueueName
  /** The one envelope type this queue carries; any other is rejected like a malformed body. */
  type: T
  /** FIFO processing (in order, a failure skips the rest of its group); by default read from the queue ARN. */
  fifo?: boolean
  log: Log
  /** One record's work, on a parsed, typed envelope. Throw to retry; throw NonRetryableError to drop. */
  handle: (envelope: Envelope<T>, record: SQSRecord) => Promise<void>
}

/**
 * makeSqsHandler returns a Lambda SQS handler reporting partial batch failures (ReportBatchItemFailures):
 * each body is parsed as an envelope of `type`; a malformed record fails alone (one warning naming
 * queue, message id, receive count and failing fields) and is redelivered until SQS dead-letters it.
 */
export function makeSqsHandler<T extends MessageType>(options: SqsHandlerOptions<T>): SqsHandler {
  const { queue, type, log, handle } = options
  const processRecord = async (record: SQSRecord): Promise<void> => {
    const where = {
      queue,
      messageId: record.messageId,
      receiveCount: Number(record.attributes.ApproximateReceiveCount),
    }
    let envelope: Envelope<T>
    try {
      envelope = parseEnvelope(record.body, type)
    } catch (err) {
      const fields = err instanceof MessageError ? err.fields : []
      log.warn('message rejected', { ...where, fields, error: (err as Error).message })
      throw err
    }
    try {
      await handle(envelope, record)
    } catch (err) {
      if (err instanceof NonRetryableError) {
        log.warn('message dropped', { ...where, id: envelope.id, reason: err.message })
        return
      }
      const fields = err instanceof MessageError ? err.fields : undefined
      log.warn('message failed', {
        ...where,
        id: envelope.id,
        error: (err as Error).message,
        ...(fields ? { fields } : {}),
      })
      throw err
    }
  }
  return async (event, context) => {
    const fifo = options.fifo ?? event.Records[0]?.eventSourceARN.endsWith('.fifo') ?? false
    // A processor holds one batch's state: a fresh one per invocation keeps concurrent local invocations apart.
    if (fifo) {
      return processPartialResponse(event, processRecord, new SqsFifoPartialProcessorAsync(), {
        ...(context ? { context } : {}),
        skipGroupOnError: true,
        throwOnFullBatchFailure: false,
      })
    }
    return processPartialResponse(event, processRecord, new BatchProcessor(EventType.SQS), {
      ...(context ? { context } : {}),
      throwOnFullBatchFailure: false,
    })
  }
}
