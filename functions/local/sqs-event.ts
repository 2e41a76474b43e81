import type { Message } from '@aws-sdk/client-sqs'
import type { Context, SQSEvent, SQSMessageAttributes, SQSRecord, SQSRecordAttributes } from 'aws-lambda'

/** toSqsEvent builds the event Lambda's SQS event source mapping would hand a function for these messages. */
export function toSqsEvent(messages: readonly Message[], queueArn: string): SQSEvent {
  const awsRegion = queueArn.split(':')[3] ?? 'us-east-1'
  return { Records: messages.map((m) => toSqsRecord(m, queueArn, awsRegion)) }
}

function toSqsRecord(message: Message, queueArn: string, awsRegion: string): SQSRecord {
  const a = message.Attributes ?? {}
  const attributes: SQSRecordAttributes = {
    ApproximateReceiveCount: a.ApproximateReceiveCount ?? '1',
    SentTimestamp: a.SentTimestamp ?? '0',
    SenderId: a.SenderId ?? 'local',
    ApproximateFirstReceiveTimestamp: a.ApproximateFirstReceiveTimestamp ?? '0',
    ...(a.SequenceNumber ? { SequenceNumber: a.SequenceNumber } : {}),
    ...(a.MessageGroupId ? { MessageGroupId: a.MessageGroupId } : {}),
    ...(a.MessageDeduplicationId ? { MessageDeduplicationId: a.MessageDeduplicationId } : {}),
  }
  const messageAttributes: SQSMessageAttributes = {}
  for (const [name, value] of Object.entries(message.MessageAttributes ?? {})) {
    messageAttributes[name] = {
      dataType: value.DataType ?? 'String',
      ...(value.StringValue === undefined ? {} : { stringValue: value.StringValue }),
      ...(value.BinaryValue === undefined ? {} : { binaryValue: Buffer.from(value.BinaryValue).toString('base64') }),
    }
  }
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes,
    messageAttributes,
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion,
  }
}

/** toLambdaContext builds a Context for one local invocation; the deadline follows the function timeout. */
export function toLambdaContext(functionName: string, requestId: string, deadline: number, now: () => number): Context {
  const notCallback = () => {
    throw new Error('callback-style completion is not supported locally')
  }
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - now()),
    done: notCallback,
    fail: notCallback,
    succeed: notCallback,
  }
}
