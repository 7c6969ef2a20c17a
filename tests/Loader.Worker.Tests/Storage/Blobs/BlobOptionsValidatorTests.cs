using Loader.Worker.Storage.Blobs;

namespace Loader.Worker.Tests.Storage.Blobs;

public sealed class BlobOptionsValidatorTests
{
    [Fact]
    public void Default_blob_settings_pass()
    {
        Assert.True(new BlobOptionsValidator("Loader:Blob").Validate(null, new BlobOptions()).Succeeded);
    }

    [Fact]
    public void A_read_block_below_64_KiB_is_named_by_its_key()
    {
        var result = new BlobOptionsValidator("Loader:Blob").Validate(null, new BlobOptions { ReadBlockSize = 1024 });

        Assert.Equal(["Loader:Blob:ReadBlockSize must be between 65536 and 104857600, was 1024."], result.Failures!);
    }
}
