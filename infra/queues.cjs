// Bridge for serverless.yml: osls resolves ${file(...)} only for .yml/.json/.js/.cjs files, so this
// loads infra/queues.ts through tsx and hands osls the CloudFormation it renders from infra/queues.yml.
// Usage in serverless.yml: `resources: [ '${file(./infra/queues.cjs)}' ]`.
const { join } = require('node:path')
const { require: requireTs } = require('tsx/cjs/api')

module.exports = () => {
  const queues = requireTs('./queues.ts', __filename)
  return queues.renderQueueResources(queues.loadQueueDefinitions(join(__dirname, 'queues.yml')))
}
