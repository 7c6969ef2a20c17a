// Azure Cosmos DB for NoSQL: account (Entra ID only), database and the target container with
// autoscale throughput and an indexing policy that indexes only the listed paths.

@description('Region of the account (single region).')
param location string

@description('Account name: 3-44 lowercase letters, digits and hyphens, globally unique.')
@minLength(3)
@maxLength(44)
param accountName string

@description('Database name.')
param databaseName string

@description('Container name.')
param containerName string

@description('Partition key path of the container; the loader writes the rendered partition key there.')
param partitionKeyPath string = '/pk'

@description('Autoscale maximum RU/s of the container (scales between 10% of this and this).')
@minValue(1000)
param autoscaleMaxThroughput int = 1000

@description('Paths to index, e.g. [\'/dest/?\', \'/carrier/?\']. Everything else (/*) is excluded: each indexed path costs RU on every write.')
param indexedPaths array = []

@description('Tags for the account.')
param tags object = {}

resource account 'Microsoft.DocumentDB/databaseAccounts@2024-05-15' = {
  name: accountName
  location: location
  tags: tags
  kind: 'GlobalDocumentDB'
  properties: {
    databaseAccountOfferType: 'Standard'
    locations: [
      {
        locationName: location
        failoverPriority: 0
        isZoneRedundant: false
      }
    ]
    consistencyPolicy: {
      defaultConsistencyLevel: 'Session'
    }
    // Entra ID (RBAC) only: account keys cannot be used for data, nor for metadata writes.
    disableLocalAuth: true
    disableKeyBasedMetadataWriteAccess: true
    minimalTlsVersion: 'Tls12'
    publicNetworkAccess: 'Enabled'
    enableAutomaticFailover: false
  }
}

resource database 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases@2024-05-15' = {
  parent: account
  name: databaseName
  properties: {
    resource: {
      id: databaseName
    }
  }
}

resource container 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@2024-05-15' = {
  parent: database
  name: containerName
  properties: {
    resource: {
      id: containerName
      partitionKey: {
        paths: [
          partitionKeyPath
        ]
        kind: 'Hash'
        version: 2
      }
      indexingPolicy: {
        indexingMode: 'consistent'
        automatic: true
        includedPaths: [for path in indexedPaths: {
          path: path
        }]
        excludedPaths: [
          {
            path: '/*'
          }
        ]
      }
    }
    options: {
      autoscaleSettings: {
        maxThroughput: autoscaleMaxThroughput
      }
    }
  }
}

output id string = account.id
output accountName string = account.name
@description('e.g. https://<account>.documents.azure.com:443/')
output endpoint string = account.properties.documentEndpoint
output databaseName string = database.name
output containerName string = container.name
