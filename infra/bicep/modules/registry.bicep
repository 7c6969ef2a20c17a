// The container registry the job pulls from (new, or an existing one in this module's resource
// group) and the AcrPull role for the job's identity. Deployed at the registry's resource group.

@description('Region of a new registry.')
param location string

@description('Registry name: 5-50 letters and digits, globally unique.')
@minLength(5)
@maxLength(50)
param name string

@description('true: create the registry; false: use an existing one of this name in this resource group.')
param create bool = true

@description('SKU of a new registry.')
@allowed([
  'Basic'
  'Standard'
  'Premium'
])
param sku string = 'Basic'

@description('Principal (object) id that gets AcrPull.')
param pullPrincipalId string

@description('Tags for a new registry.')
param tags object = {}

// AcrPull (built-in role).
var acrPullRoleId = '7f951dda-4ed3-4680-a7ca-43fe172d538d'

resource newRegistry 'Microsoft.ContainerRegistry/registries@2023-07-01' = if (create) {
  name: name
  location: location
  tags: tags
  sku: {
    name: sku
  }
  properties: {
    // No admin user: pushes use Entra ID (az acr login / az acr build), pulls the managed identity.
    adminUserEnabled: false
  }
}

resource registry 'Microsoft.ContainerRegistry/registries@2023-07-01' existing = {
  name: name
}

resource acrPull 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(registry.id, pullPrincipalId, acrPullRoleId)
  scope: registry
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', acrPullRoleId)
    principalId: pullPrincipalId
    principalType: 'ServicePrincipal'
  }
  dependsOn: [
    newRegistry
  ]
}

output id string = registry.id
output name string = registry.name
output loginServer string = registry.properties.loginServer
