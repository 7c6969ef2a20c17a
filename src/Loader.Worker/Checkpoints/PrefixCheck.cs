using Loader.Worker.Records;

namespace Loader.Worker.Checkpoints;

/// <summary>
/// The marks of a checkpoint's fingerprint a restart has still to pass: as it reads the input again (skipping the
/// records the checkpoint shows settled), it folds each well-formed record into the same <see cref="RecordSequenceHash"/>
/// and, at each mark's record, compares. The first mark whose hash differs says where the input changed. Used by one
/// thread at a time: the planner while it skips, then the read stage.
/// </summary>
/// <param name="marks">The checkpoint's marks, in record order.</param>
/// <param name="fingerprint">The restart's own fingerprint, folded by whoever reads.</param>
/// <param name="describe">Says why the input is refused: given the last mark passed (null: none), the mark that failed, and the records read when the input ended before it (null: it did not).</param>
internal sealed class PrefixCheck(IReadOnlyList<PrefixMark> marks, RecordSequenceHash fingerprint, Func<PrefixMark?, PrefixMark, long?, string> describe)
{
    private int _next;

    /// <summary>Whether every mark was passed.</summary>
    public bool Done => _next >= marks.Count;

    /// <summary>The record of the next mark to pass.</summary>
    public long NextMark => Done ? long.MaxValue : marks[_next].Record;

    /// <summary>The last mark passed, when one was.</summary>
    public PrefixMark? Passed { get; private set; }

    /// <summary>Compares the fingerprint with the next mark once the records up to it are folded: why the input is refused, or null.</summary>
    public string? Check()
    {
        if (Done || fingerprint.Records < marks[_next].Record)
        {
            return null;
        }

        var mark = marks[_next];
        if (fingerprint.Records != mark.Record || RecordSequenceHash.Text(fingerprint.Current) != mark.Hash)
        {
            return describe(Passed, mark, null);
        }

        Passed = mark;
        _next++;
        return null;
    }

    /// <summary>The input ended before the next mark: why it is refused (null when every mark was passed).</summary>
    public string? Ended() => Done ? null : describe(Passed, marks[_next], fingerprint.Records);
}
