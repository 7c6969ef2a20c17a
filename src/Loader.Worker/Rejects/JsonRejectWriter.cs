using System.Text;

namespace Loader.Worker.Rejects;

/// <summary>A rejects file in JSON Lines, one object per line; when resuming, the earlier run's lines read on lines of the input up to the resume point are kept.</summary>
internal sealed class JsonRejectWriter : IRejectWriter
{
    private readonly StreamWriter _writer;

    public JsonRejectWriter(string path, long? keepUpToLine)
    {
        var kept = keepUpToLine is { } line && File.Exists(path)
            ? File.ReadLines(path).Where(text => JsonRejectRows.InputLineOf(text) is { } read && read <= line).ToList()
            : [];
        _writer = new StreamWriter(path, append: false, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false)) { NewLine = "\n" };
        foreach (var text in kept)
        {
            _writer.WriteLine(text);
        }
    }

    public void Write(RejectRow row) => _writer.WriteLine(row.Fields[0]);

    public void Flush() => _writer.Flush();

    public void Dispose() => _writer.Dispose();
}
