// Data-plane roles for the job's identity (and, optionally, for the operator who uploads input
// and reads reports). No keys: Storage has shared keys off and Cosmos DB local auth off.

@description('Principal (object) id of the job\'s managed identity.')
param principalId string

@description('Storage account holding input and state.')
param storageAccountName string

@description('Blob container the loader writes reports, rejects and checkpoints to.')
param stateContainerName string

@description('Grant Storage Table Data Contributor (the Tables backend).')
param grantTableData bool

@description('Grant Storage Queue Data Contributor on the account (a sharded load: plan sends shards, work takes, hides, deletes and poisons them).')
param grantQueueData bool = false

@description('Cosmos DB account to grant Cosmos DB Built-in Data Contributor on; empty: none.')
param cosmosAccountName string = ''

@description('Application Insights component to grant Monitoring Metrics Publisher on; empty: none.')
param applicationInsightsName string = ''

@description('Optional: a user or group that uploads input and reads reports (Storage Blob Data Contributor on the account).')
param operatorPrincipalId string = ''

@description('Kind of the operator principal.')
@allowed([
  'User'
  'Group'
  'ServicePrincipal'
])
param operatorPrincipalType string = 'User'

// Built-in Azure roles (role definition ids).
var storageTableDataContributor = '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3'
var storageBlobDataReader = '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1'
var storageBlobDataContributor = 'ba92f5b4-2d11-453d-a403-e96b0029c9fe'
// Message Processor (peek, receive, delete) is not enough: a worker stopped mid-shard and the move to the
// poison queue send messages, and plan creates the queues where missing.
var storageQueueDataContributor = '974c5e8b-45b9-4653-ba55-5f855dd0fb88'
// Cosmos DB data-plane role "Cosmos DB Built-in Data Contributor" (a SQL role definition of the account).
var cosmosBuiltInDataContributor = '00000000-0000-0000-0000-000000000002'

// Send metrics to an Application Insights component with local authentication disabled.
var monitoringMetricsPublisher = '3913510d-42f4-4e42-8a64-420c390055eb'

var grantCosmos = !empty(cosmosAccountName)
var grantMetrics = !empty(applicationInsightsName)

resource storage 'Microsoft.Storage/storageAccounts@2023-05-01' existing = {
  name: storageAccountName
}

resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2023-05-01' existing = {
  parent: storage
  name: 'default'
}

resource stateContainer 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-05-01' existing = {
  parent: blobService
  name: stateContainerName
}

// Only referenced (by id) when grantCosmos; the placeholder name keeps the id well formed otherwise.
resource cosmosAccount 'Microsoft.DocumentDB/databaseAccounts@2024-05-15' existing = {
  name: grantCosmos ? cosmosAccountName : 'none'
}

resource applicationInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: grantMetrics ? applicationInsightsName : 'none'
}

// Tables backend: read and write entities (and create the table when the loader is asked to).
resource tableData 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (grantTableData) {
  name: guid(storage.id, principalId, storageTableDataContributor)
  scope: storage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', storageTableDataContributor)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}

// Read the input blobs (any container of the account).
resource blobReader 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(storage.id, principalId, storageBlobDataReader)
  scope: storage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', storageBlobDataReader)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}

// Write report, rejects and checkpoint: only in the state container.
resource stateWriter 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(stateContainer.id, principalId, storageBlobDataContributor)
  scope: stateContainer
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', storageBlobDataContributor)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}

// Sharded load: the shard queue and its poison queue.
resource queueData 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (grantQueueData) {
  name: guid(storage.id, principalId, storageQueueDataContributor)
  scope: storage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', storageQueueDataContributor)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}

// The operator runs plan and status of a sharded load from their own machine.
resource operatorQueue 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (grantQueueData && !empty(operatorPrincipalId)) {
  name: guid(storage.id, operatorPrincipalId, storageQueueDataContributor)
  scope: storage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', storageQueueDataContributor)
    principalId: operatorPrincipalId
    principalType: operatorPrincipalType
  }
}

// Cosmos DB data plane: read and write items (not create databases or containers; Bicep does that).
resource cosmosData 'Microsoft.DocumentDB/databaseAccounts/sqlRoleAssignments@2024-05-15' = if (grantCosmos) {
  parent: cosmosAccount
  name: guid(cosmosAccount.id, principalId, cosmosBuiltInDataContributor)
  properties: {
    roleDefinitionId: '${cosmosAccount.id}/sqlRoleDefinitions/${cosmosBuiltInDataContributor}'
    principalId: principalId
    scope: cosmosAccount.id
  }
}

// The operator uploads input and downloads reports with `--auth-mode login`.
resource operatorBlob 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(operatorPrincipalId)) {
  name: guid(storage.id, operatorPrincipalId, storageBlobDataContributor)
  scope: storage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', storageBlobDataContributor)
    principalId: operatorPrincipalId
    principalType: operatorPrincipalType
  }
}

// Metrics to Azure Monitor with the job's identity (the component accepts no instrumentation key alone).
resource metricsPublisher 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (grantMetrics) {
  name: guid(applicationInsights.id, principalId, monitoringMetricsPublisher)
  scope: applicationInsights
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', monitoringMetricsPublisher)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}
