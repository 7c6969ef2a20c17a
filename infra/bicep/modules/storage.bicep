// Storage account for the input CSVs, the loader's state (report, rejects, checkpoint) and, for
// the Tables backend, the target table. Shared keys are off: every caller signs in with Entra ID.

@description('Region of the account.')
param location string

@description('Account name: 3-24 lowercase letters and digits, globally unique.')
@minLength(3)
@maxLength(24)
param name string

@description('Redundancy of the account.')
@allowed([
  'Standard_LRS'
  'Standard_ZRS'
  'Standard_GRS'
  'Standard_RAGRS'
])
param skuName string = 'Standard_LRS'

@description('Blob container the input CSVs are uploaded to.')
param inputContainerName string

@description('Blob container for reports, rejects and checkpoints.')
param stateContainerName string

@description('Table to create; empty: none (the Cosmos backend, or the loader creates it).')
param tableName string = ''

@description('Queue of a sharded load\'s shards, created with its poison queue (<name>-poison); empty: none.')
param shardQueueName string = ''

@description('Tags for the account.')
param tags object = {}

resource account 'Microsoft.Storage/storageAccounts@2023-05-01' = {
  name: name
  location: location
  tags: tags
  sku: {
    name: skuName
  }
  kind: 'StorageV2'
  properties: {
    accessTier: 'Hot'
    allowSharedKeyAccess: false
    defaultToOAuthAuthentication: true
    allowBlobPublicAccess: false
    allowCrossTenantReplication: false
    minimumTlsVersion: 'TLS1_2'
    supportsHttpsTrafficOnly: true
    publicNetworkAccess: 'Enabled'
    networkAcls: {
      defaultAction: 'Allow'
      bypass: 'AzureServices'
    }
  }
}

resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2023-05-01' = {
  parent: account
  name: 'default'
}

resource inputContainer 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-05-01' = {
  parent: blobService
  name: inputContainerName
  properties: {
    publicAccess: 'None'
  }
}

resource stateContainer 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-05-01' = {
  parent: blobService
  name: stateContainerName
  properties: {
    publicAccess: 'None'
  }
}

resource tableService 'Microsoft.Storage/storageAccounts/tableServices@2023-05-01' = if (!empty(tableName)) {
  parent: account
  name: 'default'
}

resource table 'Microsoft.Storage/storageAccounts/tableServices/tables@2023-05-01' = if (!empty(tableName)) {
  parent: tableService
  name: tableName
}

resource queueService 'Microsoft.Storage/storageAccounts/queueServices@2023-05-01' = if (!empty(shardQueueName)) {
  parent: account
  name: 'default'
}

resource shardQueue 'Microsoft.Storage/storageAccounts/queueServices/queues@2023-05-01' = if (!empty(shardQueueName)) {
  parent: queueService
  name: empty(shardQueueName) ? 'none' : shardQueueName
}

// Where a shard taken too often without being settled goes; `status` counts it.
resource poisonQueue 'Microsoft.Storage/storageAccounts/queueServices/queues@2023-05-01' = if (!empty(shardQueueName)) {
  parent: queueService
  name: empty(shardQueueName) ? 'none-poison' : '${shardQueueName}-poison'
}

// Endpoints come with a trailing slash; the loader's settings take them without.
var blobEndpoint = account.properties.primaryEndpoints.blob
var tableEndpoint = account.properties.primaryEndpoints.table
var queueEndpoint = account.properties.primaryEndpoints.queue

output id string = account.id
output name string = account.name
@description('e.g. https://<account>.blob.core.windows.net (no trailing slash)')
output blobEndpoint string = take(blobEndpoint, length(blobEndpoint) - 1)
@description('e.g. https://<account>.table.core.windows.net (no trailing slash)')
output tableEndpoint string = take(tableEndpoint, length(tableEndpoint) - 1)
@description('e.g. https://<account>.queue.core.windows.net (no trailing slash)')
output queueEndpoint string = take(queueEndpoint, length(queueEndpoint) - 1)
output inputContainerName string = inputContainer.name
output stateContainerName string = stateContainer.name
