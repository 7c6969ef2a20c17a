// A Container Apps job of the loader. It runs as the user-assigned identity (image pull and data
// access); its settings are plain environment variables: endpoints and blob URLs, never keys or
// connection strings. Two kinds:
// - a scheduled job that runs one load per execution (one replica: one process reads the input in order);
// - with shardQueueUrl, a manually started job whose execution runs `parallelism` replicas of `work`,
//   each taking shards of a planned load from the queue until it is empty (docs/deploy.md, Sharded load).

@description('Region of the job.')
param location string

@description('Job name: lowercase letters, digits and hyphens, under 32 characters.')
@maxLength(31)
param name string

@description('Resource id of the Container Apps environment.')
param environmentId string

@description('Resource id of the user-assigned identity.')
param identityId string

@description('Client id of that identity: AZURE_CLIENT_ID selects it for DefaultAzureCredential.')
param identityClientId string

@description('Registry login server, e.g. myregistry.azurecr.io.')
param registryLoginServer string

@description('Repository of the image in the registry.')
param imageName string

@description('Image tag to run.')
param imageTag string

@description('When executions start: five-field cron, UTC.')
param cronExpression string

@description('Seconds an execution may run before it is stopped (SIGTERM, then killed after the grace period).')
param replicaTimeoutSeconds int

@description('Retries of a failed execution (non-zero exit code) before it is marked failed.')
@minValue(0)
param replicaRetryLimit int

@description('vCPU of the replica, as a string because Bicep has no decimals: 0.25 0.5 0.75 1.0 1.25 1.5 1.75 2.0 ... 4.0.')
param cpu string

@description('Memory of the replica, twice the vCPU in Gi on the Consumption profile: 0.5Gi ... 8Gi.')
param memory string

@description('Backend the loader writes to.')
@allowed([
  'Tables'
  'Cosmos'
])
param backend string

@description('Loader:Input, a blob URL or a container prefix URL ending with /.')
param inputUrl string

@description('Loader:PartitionKey template, e.g. {dest}.')
param partitionKeyTemplate string

@description('Loader:RowKey template (Cosmos DB: the id), e.g. {year}-{month}-{day}-{carrier}-{flight}.')
param rowKeyTemplate string

@description('Loader:Columns, column name to type (String, Int32, Int64, Double, Boolean, DateTime, Guid).')
param columns object

@description('Loader:WriteMode.')
@allowed([
  'Upsert'
  'Merge'
  'Insert'
])
param writeMode string

@description('Loader:BatchSize, at most 100.')
@minValue(1)
@maxValue(100)
param batchSize int

@description('Loader:MaxParallelBatches.')
@minValue(1)
param maxParallelBatches int

@description('Loader:MaxRejects.')
@minValue(0)
param maxRejects int

@description('Loader:ReportPath as a blob URL.')
param reportUrl string

@description('Loader:RejectsPath as a blob URL.')
param rejectsUrl string

@description('Loader:CheckpointPath as a blob URL; a retried execution resumes from it.')
param checkpointUrl string

@description('Loader:ShutdownGracePeriod. With the platform\'s 30 s between SIGTERM and kill, keep it near 20 s so the checkpoint and report are written in time.')
param shutdownGracePeriod string

@description('Sharded load: Loader:Shards:Queue, e.g. https://<account>.queue.core.windows.net/loader-shards; empty: a job of single loads.')
param shardQueueUrl string = ''

@description('Sharded load: Loader:Shards:State, the blob folder (ending with /) of the load\'s manifest and shard state.')
param shardStateUrl string = ''

@description('Sharded load: work replicas per execution (Container Apps job parallelism).')
@minValue(1)
@maxValue(100)
param parallelism int = 1

@description('Sharded load: Loader:Shards:VisibilityTimeout, how soon a dead worker\'s shard is taken over (hh:mm:ss).')
param shardVisibilityTimeout string = '00:02:00'

@description('Tables backend: Loader:Tables:Endpoint, e.g. https://<account>.table.core.windows.net.')
param tablesEndpoint string = ''

@description('Tables backend: Loader:Tables:Table.')
param tableName string = ''

@description('Tables backend: Loader:Tables:CreateTable.')
param createTable bool = false

@description('Cosmos backend: Loader:Cosmos:Endpoint, e.g. https://<account>.documents.azure.com:443/.')
param cosmosEndpoint string = ''

@description('Cosmos backend: Loader:Cosmos:Database.')
param cosmosDatabase string = ''

@description('Cosmos backend: Loader:Cosmos:Container.')
param cosmosContainer string = ''

@description('Cosmos backend: Loader:Cosmos:PartitionKeyPath.')
param cosmosPartitionKeyPath string = '/pk'

@description('Cosmos backend: Loader:Cosmos:Mode.')
@allowed([
  'TransactionalBatch'
  'Bulk'
])
param cosmosMode string = 'TransactionalBatch'

@description('Cosmos backend: Loader:Cosmos:ConnectionMode.')
@allowed([
  'Direct'
  'Gateway'
])
param cosmosConnectionMode string = 'Direct'

@description('Optional OTLP endpoint for metrics (OTEL_EXPORTER_OTLP_ENDPOINT); empty: no export.')
param otlpEndpoint string = ''

@description('Optional Application Insights component (local authentication disabled) for metrics, sent with the identity; empty: none.')
param applicationInsightsName string = ''

@description('More environment variables, [{ name: ..., value: ... }], e.g. Loader__Retry__MaxAttempts. No secrets.')
param extraEnv array = []

@description('Tags for the job.')
param tags object = {}

var commonEnv = [
  {
    name: 'AZURE_CLIENT_ID'
    value: identityClientId
  }
  {
    name: 'Loader__Backend'
    value: backend
  }
  {
    name: 'Loader__Input'
    value: inputUrl
  }
  {
    name: 'Loader__PartitionKey'
    value: partitionKeyTemplate
  }
  {
    name: 'Loader__RowKey'
    value: rowKeyTemplate
  }
  {
    name: 'Loader__WriteMode'
    value: writeMode
  }
  {
    name: 'Loader__BatchSize'
    value: string(batchSize)
  }
  {
    name: 'Loader__MaxParallelBatches'
    value: string(maxParallelBatches)
  }
  {
    name: 'Loader__MaxRejects'
    value: string(maxRejects)
  }
  {
    name: 'Loader__ReportPath'
    value: reportUrl
  }
  {
    name: 'Loader__ShutdownGracePeriod'
    value: shutdownGracePeriod
  }
  {
    name: 'Loader__LogFormat'
    value: 'Json'
  }
]

var sharded = !empty(shardQueueUrl)

// A single load keeps its checkpoint and rejects here; each shard keeps its own in the state folder.
var loadEnv = sharded ? [
  {
    name: 'Loader__Shards__Queue'
    value: shardQueueUrl
  }
  {
    name: 'Loader__Shards__State'
    value: shardStateUrl
  }
  {
    name: 'Loader__Shards__VisibilityTimeout'
    value: shardVisibilityTimeout
  }
] : [
  {
    name: 'Loader__RejectsPath'
    value: rejectsUrl
  }
  {
    name: 'Loader__CheckpointPath'
    value: checkpointUrl
  }
]

var columnEnv = [for column in items(columns): {
  name: 'Loader__Columns__${column.key}'
  value: column.value
}]

var tablesEnv = backend == 'Tables' ? [
  {
    name: 'Loader__Tables__Endpoint'
    value: tablesEndpoint
  }
  {
    name: 'Loader__Tables__Table'
    value: tableName
  }
  {
    name: 'Loader__Tables__CreateTable'
    value: createTable ? 'true' : 'false'
  }
] : []

var cosmosEnv = backend == 'Cosmos' ? [
  {
    name: 'Loader__Cosmos__Endpoint'
    value: cosmosEndpoint
  }
  {
    name: 'Loader__Cosmos__Database'
    value: cosmosDatabase
  }
  {
    name: 'Loader__Cosmos__Container'
    value: cosmosContainer
  }
  {
    name: 'Loader__Cosmos__PartitionKeyPath'
    value: cosmosPartitionKeyPath
  }
  {
    name: 'Loader__Cosmos__Mode'
    value: cosmosMode
  }
  {
    name: 'Loader__Cosmos__ConnectionMode'
    value: cosmosConnectionMode
  }
  {
    // Database and container are provisioned by Bicep; the data-plane role cannot create them.
    name: 'Loader__Cosmos__CreateIfMissing'
    value: 'false'
  }
] : []

// Only read when a component is named: if() evaluates the branch it takes.
resource applicationInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: empty(applicationInsightsName) ? 'none' : applicationInsightsName
}

var azureMonitorEnv = empty(applicationInsightsName) ? [] : [
  {
    // Names the component; with local authentication off it grants nothing without the identity's token.
    name: 'APPLICATIONINSIGHTS_CONNECTION_STRING'
    value: applicationInsights.properties.ConnectionString
  }
  {
    name: 'Loader__Telemetry__AzureMonitorAuthentication'
    value: 'EntraId'
  }
]

var otlpEnv = empty(otlpEndpoint) ? [] : [
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT'
    value: otlpEndpoint
  }
  {
    name: 'OTEL_SERVICE_NAME'
    value: name
  }
]

var containers = [
  {
    name: 'loader'
    image: '${registryLoginServer}/${imageName}:${imageTag}'
    // A sharded load's replicas run the verb `work`; a single load runs no verb.
    args: sharded ? [
      'work'
    ] : []
    resources: {
      cpu: json(cpu)
      memory: memory
    }
    env: concat(commonEnv, loadEnv, columnEnv, tablesEnv, cosmosEnv, otlpEnv, azureMonitorEnv, extraEnv)
  }
]

resource job 'Microsoft.App/jobs@2024-03-01' = if (!sharded) {
  name: name
  location: location
  tags: tags
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: {
      '${identityId}': {}
    }
  }
  properties: {
    environmentId: environmentId
    workloadProfileName: 'Consumption'
    configuration: {
      triggerType: 'Schedule'
      scheduleTriggerConfig: {
        cronExpression: cronExpression
        // One replica per execution: the loader is one process reading one input in order.
        parallelism: 1
        replicaCompletionCount: 1
      }
      replicaTimeout: replicaTimeoutSeconds
      replicaRetryLimit: replicaRetryLimit
      registries: [
        {
          server: registryLoginServer
          identity: identityId
        }
      ]
    }
    template: {
      containers: containers
    }
  }
}

// Started by hand (az containerapp job start) after `plan`: every replica takes shards until the queue is
// empty, so the execution ends when the load is done. Replicas are the job's parallelism, not queue-triggered
// executions: event-driven jobs have been seen to run only ~10-12 executions at once whatever their maximum
// (microsoft/azure-container-apps#1216), and a replica that drains the queue needs no trigger per shard.
resource workJob 'Microsoft.App/jobs@2024-03-01' = if (sharded) {
  name: name
  location: location
  tags: tags
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: {
      '${identityId}': {}
    }
  }
  properties: {
    environmentId: environmentId
    workloadProfileName: 'Consumption'
    configuration: {
      triggerType: 'Manual'
      manualTriggerConfig: {
        parallelism: parallelism
        // Every replica ends when the queue is empty; each one that does so completes.
        replicaCompletionCount: parallelism
      }
      replicaTimeout: replicaTimeoutSeconds
      // A replica that fails is not started again: its shard returns to the queue and the others take it.
      replicaRetryLimit: 0
      registries: [
        {
          server: registryLoginServer
          identity: identityId
        }
      ]
    }
    template: {
      containers: containers
    }
  }
}

output id string = sharded ? workJob.id : job.id
output name string = name
