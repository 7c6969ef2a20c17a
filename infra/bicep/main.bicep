// Bulk loader on Azure: a scheduled Container Apps job that loads CSV blobs into Azure Table
// Storage or Azure Cosmos DB for NoSQL with a user-assigned managed identity. No account keys or
// connection strings anywhere: Storage has shared keys off, Cosmos DB local auth off.
//
//   az deployment group create -g <rg> -f infra/bicep/main.bicep -p infra/bicep/tables.bicepparam
//   az deployment group create -g <rg> -f infra/bicep/main.bicep -p infra/bicep/cosmos.bicepparam
//
// See docs/deploy.md.

targetScope = 'resourceGroup'

// ---------------------------------------------------------------------------------------------
// general
// ---------------------------------------------------------------------------------------------

@description('Region of all resources.')
param location string = resourceGroup().location

@description('Short prefix of resource names: 3-9 lowercase letters and digits.')
@minLength(3)
@maxLength(9)
param namePrefix string = 'bulkload'

@description('Tags for every resource.')
param tags object = {}

@description('Where the loader writes.')
@allowed([
  'Tables'
  'Cosmos'
])
param backend string = 'Tables'

// ---------------------------------------------------------------------------------------------
// image and registry
// ---------------------------------------------------------------------------------------------

@description('Image tag to run (build and push it first: az acr build ... -t <imageName>:<imageTag>).')
param imageTag string

@description('Repository of the image in the registry.')
param imageName string = 'bulk-loader'

@description('true: create a registry; false: use the existing registry registryName in registryResourceGroupName.')
param createRegistry bool = true

@description('Registry name; empty: acr<prefix><unique>. Required when createRegistry is false.')
param registryName string = ''

@description('Resource group of the registry (an existing registry may live elsewhere).')
param registryResourceGroupName string = resourceGroup().name

@description('false: deploy everything but the job (first deployment, before the image exists).')
param deployJob bool = true

// ---------------------------------------------------------------------------------------------
// schedule and size
// ---------------------------------------------------------------------------------------------

@description('When executions start: five-field cron expression, UTC.')
param cronExpression string = '0 2 * * *'

@description('Seconds an execution may run; then it is stopped like any replica (SIGTERM, then killed).')
@minValue(60)
param replicaTimeoutSeconds int = 14400

@description('Retries of a failed execution; each retry resumes from the checkpoint blob.')
@minValue(0)
@maxValue(10)
param replicaRetryLimit int = 2

@description('vCPU per replica, as a string: 0.5, 1.0, 2.0 ... 4.0.')
param cpu string = '1.0'

@description('Memory per replica: twice the vCPU in Gi on the Consumption profile.')
param memory string = '2Gi'

// ---------------------------------------------------------------------------------------------
// input, mapping and state
// ---------------------------------------------------------------------------------------------

@description('Blob container the input CSVs are uploaded to.')
param inputContainerName string = 'input'

@description('Blob name of the input, or a prefix ending with / to load every blob under it in name order.')
param inputPath string = 'flights/'

@description('Blob container for reports, rejects and checkpoints (the identity may write only there).')
param stateContainerName string = 'loader-state'

@description('Partition key template.')
param partitionKeyTemplate string = '{dest}'

@description('Row key (Tables) / id (Cosmos DB) template.')
param rowKeyTemplate string = '{year}-{month}-{day}-{carrier}-{flight}'

@description('Column types: name to String, Int32, Int64, Double, Boolean, DateTime or Guid; unlisted columns are strings.')
param columns object = {}

@description('How rows are written.')
@allowed([
  'Upsert'
  'Merge'
  'Insert'
])
param writeMode string = 'Upsert'

@description('Rows per transactional batch (at most 100).')
@minValue(1)
@maxValue(100)
param batchSize int = 100

@description('Batches in flight at once.')
@minValue(1)
param maxParallelBatches int = 16

@description('Rows that may be rejected before the load stops.')
@minValue(0)
param maxRejects int = 1000

@description('Time in-flight batches get after SIGTERM (hh:mm:ss). The platform kills the replica 30 s after SIGTERM.')
param shutdownGracePeriod string = '00:00:20'

@description('Sharded load: replicas of `work` per execution of a second, manually started job (<prefix>-loader-work); 0: no sharded load. See docs/deploy.md.')
@minValue(0)
@maxValue(100)
param shardWorkers int = 0

@description('Sharded load: the shard queue (its poison queue is <name>-poison).')
param shardQueueName string = 'loader-shards'

@description('Sharded load: how soon a dead worker\'s shard is taken over (Loader:Shards:VisibilityTimeout, hh:mm:ss).')
param shardVisibilityTimeout string = '00:02:00'

// ---------------------------------------------------------------------------------------------
// Tables backend
// ---------------------------------------------------------------------------------------------

@description('Target table (Tables backend).')
param tableName string = 'flights'

@description('true: Bicep creates the table and the loader does not try; false: the loader creates it.')
param createTableWithBicep bool = true

@description('Storage redundancy.')
@allowed([
  'Standard_LRS'
  'Standard_ZRS'
  'Standard_GRS'
  'Standard_RAGRS'
])
param storageSku string = 'Standard_LRS'

// ---------------------------------------------------------------------------------------------
// Cosmos backend
// ---------------------------------------------------------------------------------------------

@description('Cosmos DB database.')
param cosmosDatabaseName string = 'loader'

@description('Cosmos DB container.')
param cosmosContainerName string = 'flights'

@description('Partition key path of the container.')
param cosmosPartitionKeyPath string = '/pk'

@description('Autoscale maximum RU/s of the container.')
@minValue(1000)
param cosmosAutoscaleMaxThroughput int = 1000

@description('Only these paths are indexed (everything else excluded, to cut write RU), e.g. [\'/dest/?\'].')
param cosmosIndexedPaths array = []

@description('Loader:Cosmos:Mode.')
@allowed([
  'TransactionalBatch'
  'Bulk'
])
param cosmosMode string = 'TransactionalBatch'

@description('Loader:Cosmos:ConnectionMode.')
@allowed([
  'Direct'
  'Gateway'
])
param cosmosConnectionMode string = 'Direct'

// ---------------------------------------------------------------------------------------------
// operations
// ---------------------------------------------------------------------------------------------

@description('Optional OTLP endpoint for the loader\'s metrics; empty: none.')
param otlpEndpoint string = ''

@description('Create an Application Insights component (local authentication off) and send the loader\'s metrics to it with the job\'s identity.')
param applicationInsights bool = true

@description('Optional object id of the user or group that uploads input and reads reports (gets Storage Blob Data Contributor).')
param operatorPrincipalId string = ''

@description('Kind of operatorPrincipalId.')
@allowed([
  'User'
  'Group'
  'ServicePrincipal'
])
param operatorPrincipalType string = 'User'

@description('Days Log Analytics keeps the job\'s logs.')
@minValue(30)
param logRetentionDays int = 30

@description('More environment variables for the loader, [{ name: ..., value: ... }]; no secrets.')
param extraEnv array = []

// ---------------------------------------------------------------------------------------------

var isCosmos = backend == 'Cosmos'
var prefix = toLower(namePrefix)
var suffix = uniqueString(resourceGroup().id, prefix)
var names = {
  workspace: 'log-${prefix}-${suffix}'
  applicationInsights: 'appi-${prefix}-${suffix}'
  environment: 'cae-${prefix}-${suffix}'
  identity: 'id-${prefix}-loader'
  registry: empty(registryName) ? 'acr${prefix}${suffix}' : registryName
  storage: 'st${prefix}${suffix}'
  cosmos: 'cosmos-${prefix}-${suffix}'
  job: '${prefix}-loader'
  workJob: '${prefix}-loader-work'
}

var sharded = shardWorkers > 0

module identity 'modules/identity.bicep' = {
  name: 'loader-identity'
  params: {
    location: location
    name: names.identity
    tags: tags
  }
}

module monitoring 'modules/monitoring.bicep' = {
  name: 'loader-monitoring'
  params: {
    location: location
    workspaceName: names.workspace
    environmentName: names.environment
    applicationInsightsName: applicationInsights ? names.applicationInsights : ''
    retentionInDays: logRetentionDays
    tags: tags
  }
}

module registry 'modules/registry.bicep' = {
  name: 'loader-registry'
  scope: resourceGroup(registryResourceGroupName)
  params: {
    location: location
    name: names.registry
    create: createRegistry
    pullPrincipalId: identity.outputs.principalId
    tags: tags
  }
}

module storage 'modules/storage.bicep' = {
  name: 'loader-storage'
  params: {
    location: location
    name: names.storage
    skuName: storageSku
    inputContainerName: inputContainerName
    stateContainerName: stateContainerName
    tableName: (!isCosmos && createTableWithBicep) ? tableName : ''
    shardQueueName: sharded ? shardQueueName : ''
    tags: tags
  }
}

module cosmos 'modules/cosmos.bicep' = if (isCosmos) {
  name: 'loader-cosmos'
  params: {
    location: location
    accountName: names.cosmos
    databaseName: cosmosDatabaseName
    containerName: cosmosContainerName
    partitionKeyPath: cosmosPartitionKeyPath
    autoscaleMaxThroughput: cosmosAutoscaleMaxThroughput
    indexedPaths: cosmosIndexedPaths
    tags: tags
  }
}

module roles 'modules/roles.bicep' = {
  name: 'loader-roles'
  params: {
    principalId: identity.outputs.principalId
    storageAccountName: storage.outputs.name
    stateContainerName: storage.outputs.stateContainerName
    grantTableData: !isCosmos
    grantQueueData: sharded
    cosmosAccountName: cosmos.?outputs.accountName ?? ''
    applicationInsightsName: monitoring.outputs.applicationInsightsName
    operatorPrincipalId: operatorPrincipalId
    operatorPrincipalType: operatorPrincipalType
  }
}

// Blob URLs of input and state; one state folder per job, so a retried execution finds the
// checkpoint of the execution it retries.
var inputUrl = '${storage.outputs.blobEndpoint}/${inputContainerName}/${inputPath}'
var stateUrl = '${storage.outputs.blobEndpoint}/${stateContainerName}/${names.job}'

module job 'modules/job.bicep' = if (deployJob) {
  name: 'loader-job'
  params: {
    location: location
    name: names.job
    environmentId: monitoring.outputs.environmentId
    identityId: identity.outputs.id
    identityClientId: identity.outputs.clientId
    registryLoginServer: registry.outputs.loginServer
    imageName: imageName
    imageTag: imageTag
    cronExpression: cronExpression
    replicaTimeoutSeconds: replicaTimeoutSeconds
    replicaRetryLimit: replicaRetryLimit
    cpu: cpu
    memory: memory
    backend: backend
    inputUrl: inputUrl
    partitionKeyTemplate: partitionKeyTemplate
    rowKeyTemplate: rowKeyTemplate
    columns: columns
    writeMode: writeMode
    batchSize: batchSize
    maxParallelBatches: maxParallelBatches
    maxRejects: maxRejects
    reportUrl: '${stateUrl}/report.json'
    rejectsUrl: '${stateUrl}/rejects.csv'
    checkpointUrl: '${stateUrl}/checkpoint.json'
    shutdownGracePeriod: shutdownGracePeriod
    tablesEndpoint: storage.outputs.tableEndpoint
    tableName: tableName
    createTable: !createTableWithBicep
    cosmosEndpoint: cosmos.?outputs.endpoint ?? ''
    cosmosDatabase: cosmosDatabaseName
    cosmosContainer: cosmosContainerName
    cosmosPartitionKeyPath: cosmosPartitionKeyPath
    cosmosMode: cosmosMode
    cosmosConnectionMode: cosmosConnectionMode
    otlpEndpoint: otlpEndpoint
    applicationInsightsName: monitoring.outputs.applicationInsightsName
    extraEnv: extraEnv
    tags: tags
  }
  // The identity must hold its data roles (and AcrPull, via the registry output) before the
  // first execution; role assignments can take a few minutes to apply.
  dependsOn: [
    roles
  ]
}

// The sharded load: plan (from the operator's machine, or an execution of this job with the args
// `plan`), then one execution of this job runs shardWorkers replicas of `work`, then status.
var shardStateUrl = '${storage.outputs.blobEndpoint}/${stateContainerName}/${names.workJob}/'
var shardQueueUrl = '${storage.outputs.queueEndpoint}/${shardQueueName}'

module workJob 'modules/job.bicep' = if (deployJob && sharded) {
  name: 'loader-work-job'
  params: {
    location: location
    name: names.workJob
    environmentId: monitoring.outputs.environmentId
    identityId: identity.outputs.id
    identityClientId: identity.outputs.clientId
    registryLoginServer: registry.outputs.loginServer
    imageName: imageName
    imageTag: imageTag
    cronExpression: cronExpression
    replicaTimeoutSeconds: replicaTimeoutSeconds
    replicaRetryLimit: replicaRetryLimit
    cpu: cpu
    memory: memory
    backend: backend
    inputUrl: inputUrl
    partitionKeyTemplate: partitionKeyTemplate
    rowKeyTemplate: rowKeyTemplate
    columns: columns
    writeMode: writeMode
    batchSize: batchSize
    maxParallelBatches: maxParallelBatches
    maxRejects: maxRejects
    reportUrl: '${shardStateUrl}status.json'
    rejectsUrl: ''
    checkpointUrl: ''
    shutdownGracePeriod: shutdownGracePeriod
    shardQueueUrl: shardQueueUrl
    shardStateUrl: shardStateUrl
    parallelism: max(shardWorkers, 1)
    shardVisibilityTimeout: shardVisibilityTimeout
    tablesEndpoint: storage.outputs.tableEndpoint
    tableName: tableName
    createTable: !createTableWithBicep
    cosmosEndpoint: cosmos.?outputs.endpoint ?? ''
    cosmosDatabase: cosmosDatabaseName
    cosmosContainer: cosmosContainerName
    cosmosPartitionKeyPath: cosmosPartitionKeyPath
    cosmosMode: cosmosMode
    cosmosConnectionMode: cosmosConnectionMode
    otlpEndpoint: otlpEndpoint
    applicationInsightsName: monitoring.outputs.applicationInsightsName
    extraEnv: extraEnv
    tags: tags
  }
  // The identity must hold its data roles (and AcrPull, via the registry output) before the
  // first execution; role assignments can take a few minutes to apply.
  dependsOn: [
    roles
  ]
}

output jobName string = names.job
output registryName string = names.registry
output registryLoginServer string = registry.outputs.loginServer
output image string = '${registry.outputs.loginServer}/${imageName}:${imageTag}'
output storageAccountName string = storage.outputs.name
output inputUrl string = inputUrl
output reportUrl string = '${stateUrl}/report.json'
output rejectsUrl string = '${stateUrl}/rejects.csv'
output checkpointUrl string = '${stateUrl}/checkpoint.json'
output identityClientId string = identity.outputs.clientId
output environmentName string = monitoring.outputs.environmentName
output applicationInsightsName string = monitoring.outputs.applicationInsightsName
output logAnalyticsWorkspaceId string = monitoring.outputs.workspaceCustomerId
output workJobName string = sharded ? names.workJob : ''
output shardStateUrl string = sharded ? shardStateUrl : ''
output shardQueueUrl string = sharded ? shardQueueUrl : ''
output cosmosEndpoint string = cosmos.?outputs.endpoint ?? ''
