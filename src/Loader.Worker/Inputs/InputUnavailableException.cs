namespace Loader.Worker.Inputs;

/// <summary>The input is there but could not be opened or read: the file system refused the permission, or the storage refused the credential, failed, or gave no answer.</summary>
internal sealed class InputUnavailableException(string message, Exception? inner = null) : Exception(message, inner);
