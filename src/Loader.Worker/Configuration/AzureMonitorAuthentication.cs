namespace Loader.Worker.Configuration;

/// <summary>How the loader signs in to Azure Monitor (<c>Loader:Telemetry:AzureMonitorAuthentication</c>).</summary>
internal enum AzureMonitorAuthentication
{
    /// <summary>The instrumentation key of the connection string.</summary>
    ConnectionString,

    /// <summary>Microsoft Entra ID through <c>DefaultAzureCredential</c>: no key is trusted.</summary>
    EntraId,
}
