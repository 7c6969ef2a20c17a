namespace Loader.Worker.Records;

/// <summary>Where a part can be cut.</summary>
/// <param name="HeaderBytes">Bytes before the first record: the header (and a byte-order mark), which every range after the first is read behind; 0 for a format without one.</param>
/// <param name="Cuts">Record starts at or after the targets, ascending.</param>
internal sealed record RecordCuts(long HeaderBytes, IReadOnlyList<RecordCut> Cuts);

/// <summary>A record start to cut at.</summary>
/// <param name="Offset">Its byte offset in the part.</param>
/// <param name="Line">The part's line it starts on.</param>
/// <param name="RecordsBefore">Well-formed records of the part before it.</param>
internal sealed record RecordCut(long Offset, long Line, long RecordsBefore);
