using System.Diagnostics.Metrics;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>Creates meters for components built by hand in tests (the host gives them its own factory).</summary>
public sealed class TestMeterFactory : IMeterFactory
{
    private readonly List<Meter> _meters = [];

    public Meter Create(MeterOptions options)
    {
        var meter = new Meter(options.Name, options.Version, options.Tags, this);
        _meters.Add(meter);
        return meter;
    }

    public void Dispose()
    {
        foreach (var meter in _meters)
        {
            meter.Dispose();
        }
    }
}
