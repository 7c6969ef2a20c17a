namespace Loader.Worker.Configuration;

/// <summary>How the console log is written (<c>Loader:LogFormat</c>).</summary>
internal enum LogFormat
{
    /// <summary>JSON lines when the output is not a terminal (a container's log collector), text otherwise.</summary>
    Auto,

    /// <summary>One readable line per event.</summary>
    Text,

    /// <summary>One JSON object per event, for Log Analytics and other collectors.</summary>
    Json,
}
