// Log Analytics workspace and the Container Apps environment that sends console logs to it
// (table ContainerAppConsoleLogs_CL).

@description('Region of the resources.')
param location string

@description('Name of the Log Analytics workspace.')
param workspaceName string

@description('Name of the Container Apps environment.')
param environmentName string

@description('Days the workspace keeps logs.')
@minValue(30)
@maxValue(730)
param retentionInDays int = 30

@description('Name of the Application Insights component for the loader\'s metrics; empty: none.')
param applicationInsightsName string = ''

@description('Tags for every resource.')
param tags object = {}

resource workspace 'Microsoft.OperationalInsights/workspaces@2023-09-01' = {
  name: workspaceName
  location: location
  tags: tags
  properties: {
    sku: {
      name: 'PerGB2018'
    }
    retentionInDays: retentionInDays
  }
}

// Metrics from the loader (Azure Monitor). Local authentication is off: the instrumentation key in its connection
// string names the component and grants nothing; the job's identity sends with Monitoring Metrics Publisher.
resource applicationInsights 'Microsoft.Insights/components@2020-02-02' = if (!empty(applicationInsightsName)) {
  name: empty(applicationInsightsName) ? 'none' : applicationInsightsName
  location: location
  tags: tags
  kind: 'other'
  properties: {
    Application_Type: 'other'
    WorkspaceResourceId: workspace.id
    IngestionMode: 'LogAnalytics'
    DisableLocalAuth: true
  }
}

resource managedEnvironment 'Microsoft.App/managedEnvironments@2024-03-01' = {
  name: environmentName
  location: location
  tags: tags
  properties: {
    appLogsConfiguration: {
      destination: 'log-analytics'
      logAnalyticsConfiguration: {
        customerId: workspace.properties.customerId
        // The "log-analytics" destination authenticates with the workspace's ingestion key; it is
        // read here at deployment time, handed straight to the platform and never output. It gives
        // access to this workspace's log ingestion only, not to any loader data.
        sharedKey: workspace.listKeys().primarySharedKey
      }
    }
    // A workload-profiles environment; jobs run on the serverless Consumption profile.
    workloadProfiles: [
      {
        name: 'Consumption'
        workloadProfileType: 'Consumption'
      }
    ]
    zoneRedundant: false
  }
}

output environmentId string = managedEnvironment.id
output environmentName string = managedEnvironment.name
output workspaceId string = workspace.id
@description('The workspace (customer) id that `az monitor log-analytics query -w` expects.')
output workspaceCustomerId string = workspace.properties.customerId
@description('The Application Insights component the loader sends metrics to (empty when none).')
output applicationInsightsName string = empty(applicationInsightsName) ? '' : applicationInsights.name
