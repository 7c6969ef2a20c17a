// Deployment of the loader writing to Azure Table Storage.
//   export LOADER_IMAGE_TAG=<tag you pushed>
//   export LOADER_OPERATOR_PRINCIPAL_ID=$(az ad signed-in-user show --query id -o tsv)   # optional
//   az deployment group create -g <rg> -f infra/bicep/main.bicep -p infra/bicep/tables.bicepparam
using 'main.bicep'

param backend = 'Tables'
param namePrefix = 'bulkload'
param imageName = 'bulk-loader'
param imageTag = readEnvironmentVariable('LOADER_IMAGE_TAG', '1.0.0')
param operatorPrincipalId = readEnvironmentVariable('LOADER_OPERATOR_PRINCIPAL_ID', '')

// Daily at 02:00 UTC; at most 4 h per execution, 2 retries that resume from the checkpoint.
param cronExpression = '0 2 * * *'
param replicaTimeoutSeconds = 14400
param replicaRetryLimit = 2
param cpu = '1.0'
param memory = '2Gi'

// Every blob under input/flights/ is loaded, in name order, as one input.
param inputContainerName = 'input'
param inputPath = 'flights/'
param stateContainerName = 'loader-state'

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

param tableName = 'flights'
param createTableWithBicep = true
param storageSku = 'Standard_LRS'
