using System.Globalization;
using System.Xml;
using System.Xml.Linq;

namespace Loader.Worker.Storage.Blobs;

/// <summary>One page of a List Blobs answer: its blobs in the service's order, and the marker of the next page.</summary>
internal sealed record BlobListPage(IReadOnlyList<BlobItem> Blobs, string? NextMarker)
{
    /// <summary>Reads the <c>EnumerationResults</c> XML a blob at a time, so a page of 5,000 never becomes one tree.</summary>
    public static BlobListPage Parse(Stream xml)
    {
        var blobs = new List<BlobItem>();
        string? nextMarker = null;
        using var reader = XmlReader.Create(xml, new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit, IgnoreWhitespace = true });
        reader.MoveToContent();
        while (!reader.EOF)
        {
            if (reader is { NodeType: XmlNodeType.Element, LocalName: "Blob" })
            {
                blobs.Add(ReadBlob((XElement)XNode.ReadFrom(reader)));
            }
            else if (reader is { NodeType: XmlNodeType.Element, LocalName: "NextMarker" })
            {
                nextMarker = reader.ReadElementContentAsString();
            }
            else
            {
                reader.Read();
            }
        }

        return new BlobListPage(blobs, string.IsNullOrEmpty(nextMarker) ? null : nextMarker);
    }

    private static BlobItem ReadBlob(XElement blob)
    {
        var nameElement = blob.Element("Name") ?? throw new FormatException("a Blob in the List Blobs answer has no Name.");
        // Names with characters XML cannot carry come percent-encoded and flagged.
        var name = (bool?)nameElement.Attribute("Encoded") == true ? Uri.UnescapeDataString(nameElement.Value) : nameElement.Value;
        var properties = blob.Element("Properties");
        var length = long.Parse(properties?.Element("Content-Length")?.Value ?? "0", NumberStyles.None, CultureInfo.InvariantCulture);
        var etag = properties?.Element("Etag")?.Value ?? "";
        return new BlobItem(name, length, BlobItem.ParseETag(etag));
    }
}
