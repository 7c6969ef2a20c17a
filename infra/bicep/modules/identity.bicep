// The user-assigned managed identity the job runs as: it pulls the image from the registry and
// reaches Storage and Cosmos DB through DefaultAzureCredential (selected by AZURE_CLIENT_ID).

@description('Region of the identity.')
param location string

@description('Name of the identity.')
param name string

@description('Tags for the identity.')
param tags object = {}

resource identity 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: name
  location: location
  tags: tags
}

output id string = identity.id
output name string = identity.name
output principalId string = identity.properties.principalId
output clientId string = identity.properties.clientId
