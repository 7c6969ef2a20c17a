namespace Loader.Worker.Configuration;

/// <summary>The store a load writes to.</summary>
public enum BackendKind
{
    Tables,
    Cosmos,
}
