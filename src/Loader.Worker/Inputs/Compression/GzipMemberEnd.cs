using System.Buffers.Binary;

namespace Loader.Worker.Inputs.Compression;

/// <summary>
/// Where a gzip file's last member ends, when bytes follow it that the runtime's GZipStream took in and dropped. A member
/// ends with its trailer: the CRC-32 of its text, then its text's size modulo 2^32 (ISIZE, RFC 1952). The end lies in
/// the last bytes handed to the decompressor, and the member began at one of the signatures handed over (each starts a
/// hand-over, see <see cref="CompressedFeed"/>) with the text counted so far: the end is where the four bytes before it
/// are the size of the text since the latest such start. Several places matching, or none, leave the end unknown.
/// </summary>
internal static class GzipMemberEnd
{
    // The smallest member: a 10-byte header, an empty deflate block of 2 bytes, the 8-byte trailer.
    private const int SmallestMember = 20;

    /// <summary>The byte of the part at which its last gzip member ends, or null when it cannot be placed.</summary>
    /// <param name="feed">What was handed to the decompressor, which has said its data ended.</param>
    public static long? Find(CompressedFeed feed)
    {
        var bytes = feed.LastBytes; // four bytes before the last hand-over, then it
        var members = feed.Members.ToArray();
        long? end = null;
        for (var i = 0; i + 4 <= bytes.Length - 1; i++)
        {
            // A member ending at 'at' leaves at least one byte after it: these are bytes that follow the data.
            var at = feed.LastStart + i;
            var start = Array.FindLastIndex(members, member => member.Offset + SmallestMember <= at);
            if (start < 0 || BinaryPrimitives.ReadUInt32LittleEndian(bytes[i..]) != (uint)(feed.Text - members[start].TextBefore))
            {
                continue;
            }

            if (end is not null)
            {
                return null;
            }

            end = at;
        }

        return end;
    }
}
