// Deployment of the loader writing to Azure Cosmos DB for NoSQL.
//   export LOADER_IMAGE_TAG=<tag you pushed>
//   export LOADER_OPERATOR_PRINCIPAL_ID=$(az ad signed-in-user show --query id -o tsv)   # optional
//   az deployment group create -g <rg> -f infra/bicep/main.bicep -p infra/bicep/cosmos.bicepparam
using 'main.bicep'

param backend = 'Cosmos'
param namePrefix = 'bulkload'
param imageName = 'bulk-loader'
param imageTag = readEnvironmentVariable('LOADER_IMAGE_TAG', '1.0.0')
param operatorPrincipalId = readEnvironmentVariable('LOADER_OPERATOR_PRINCIPAL_ID', '')

param cronExpression = '0 2 * * *'
param replicaTimeoutSeconds = 14400
param replicaRetryLimit = 2
param cpu = '1.0'
param memory = '2Gi'

param inputContainerName = 'input'
param inputPath = 'flights/'
param stateContainerName = 'loader-state'

// The partition key value goes to /pk, the row key template becomes the item id.
param partitionKeyTemplate = '{dest}'
param rowKeyTemplate = '{year}-{month}-{day}-{carrier}-{flight}'
param columns = {
  year: 'Int32'
  month: 'Int32'
  day: 'Int32'
  flight: 'Int32'
  dep_delay: 'Int32'
  arr_delay: 'Int32'
  distance: 'Int32'
  cancelled: 'Boolean'
}
param writeMode = 'Upsert'
param batchSize = 100
param maxParallelBatches = 16
param maxRejects = 1000

param cosmosDatabaseName = 'loader'
param cosmosContainerName = 'flights'
param cosmosPartitionKeyPath = '/pk'
// Autoscale between 100 and 1,000 RU/s; raise for large loads (each physical partition serves at most 10,000 RU/s).
param cosmosAutoscaleMaxThroughput = 1000
// Index only what is queried; writes then cost fewer RU than with the default index-everything policy.
param cosmosIndexedPaths = [
  '/dest/?'
  '/carrier/?'
  '/year/?'
]
param cosmosMode = 'TransactionalBatch'
param cosmosConnectionMode = 'Direct'
