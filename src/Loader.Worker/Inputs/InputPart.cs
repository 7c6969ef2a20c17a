namespace Loader.Worker.Inputs;

/// <summary>One file of an input: a local file or a blob. An input of several parts is read as one CSV.</summary>
public abstract record InputPart(string Name, long Length)
{
    /// <summary>What identifies this version of the part without reading it (a blob's ETag); null when there is none.</summary>
    public abstract string? Version { get; }

    /// <summary>Opens the part for reading from the start; <paramref name="bufferSize"/> is how much to fetch at a time.</summary>
    public abstract Stream Open(int bufferSize);
}
