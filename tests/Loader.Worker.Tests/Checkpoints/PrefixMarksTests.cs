using Loader.Worker.Checkpoints;

namespace Loader.Worker.Tests.Checkpoints;

/// <summary>Which fingerprint marks a checkpoint keeps: every one a restart checks as it reads the window, a few before it.</summary>
public sealed class PrefixMarksTests
{
    private static PrefixMark Mark(long record) => new(record, record + 1, record.ToString("x32", System.Globalization.CultureInfo.InvariantCulture));

    [Fact]
    public void Every_mark_from_the_last_below_the_watermark_on_is_kept_and_those_before_it_are_thinned_keeping_the_first()
    {
        var marks = new PrefixMarks();
        for (var i = 1; i <= 1_000; i++)
        {
            marks.Add(Mark(i * 512L));
        }

        marks.SettledBelow((900 * 512L) + 1);
        var kept = marks.Snapshot();

        Assert.Equal(kept.OrderBy(mark => mark.Record), kept);
        Assert.Equal(512, kept[0].Record);
        var window = kept.Where(mark => mark.Record >= 900 * 512L).Select(mark => mark.Record);
        Assert.Equal(Enumerable.Range(900, 101).Select(i => i * 512L), window);
        Assert.InRange(kept.Count(mark => mark.Record < 900 * 512L), 2, PrefixMarks.EarlierLimit);
    }

    [Fact]
    public void More_marks_in_the_window_than_a_checkpoint_holds_are_spread_evenly_ending_with_the_last()
    {
        var marks = new PrefixMarks();
        for (var i = 1; i <= 3_000; i++)
        {
            marks.Add(Mark(i));
        }

        var kept = marks.Snapshot();

        Assert.Equal(PrefixMarks.WindowLimit, kept.Count);
        Assert.Equal(3_000, kept[^1].Record);
        Assert.All(kept.Zip(kept.Skip(1)), pair => Assert.InRange(pair.Second.Record - pair.First.Record, 2, 3));
    }
}
