import ArgumentParser
import GeoNewsCommandLine
import GeoNewsServer

/// The options that bound what one user or one client address may hold or do: token lifetime,
/// dataset quota and storage, write rate.
struct OwnershipOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How long a bearer token lasts: a number with s, m, h or d (up to 36500d); older tokens get 401.", valueName: "duration"),
        transform: TokenLifetime.seconds)
    var tokenLifetime: Int64 = 90 * 86_400

    @Option(help: ArgumentHelp("Most points one user's datasets may hold together; past it an upload gets 413.", valueName: "points"))
    var quotaPoints = 2_000_000

    @Option(
        help: ArgumentHelp("Most bytes of upload one user's datasets may hold together; past it an upload gets 413.", valueName: "bytes"))
    var quotaBytes = 256 << 20

    @Option(help: ArgumentHelp("Most points one upload may have; past it the upload gets 413.", valueName: "points"))
    var maxUploadPoints = 2_000_000

    @Option(
        help: ArgumentHelp(
            "Most bytes the server's stored datasets (points and cluster archives) may take together; past it an upload gets 413.",
            valueName: "bytes"))
    var maxDatasetBytes = 8 << 30

    @Option(
        help: ArgumentHelp(
            "Most bytes of dataset archives mapped at once; past it the least recently used are unmapped (never deleted).",
            valueName: "bytes"))
    var mappedDatasetBudget = 1 << 30

    @Option(
        help: ArgumentHelp(
            "Uploads clustered at once (each holds its points on the heap while it builds, about 300 MB per million points); more wait their turn.",
            valueName: "count"))
    var maxConcurrentDatasetBuilds = 2

    @Option(
        help: ArgumentHelp(
            "Seconds an upload may wait for its turn to be clustered; past them it gets 503 with Retry-After (0: no waiting).",
            valueName: "seconds"))
    var datasetBuildWait: Int64 = 30

    @Option(
        help: ArgumentHelp(
            "Writes (POST, PUT, DELETE on users, favourites, settings, datasets) one client address may make per second, after the burst; past it 429.",
            valueName: "per-second"),
        transform: { text in try FiniteNumber.parse(text) })
    var writeRate = 5.0

    @Option(help: ArgumentHelp("Writes one client address may make at once before --write-rate applies.", valueName: "count"))
    var writeBurst = 30

    @Option(
        help: ArgumentHelp("Client addresses whose write rate is tracked at once (bounds the memory the limit uses).", valueName: "count"))
    var trackedAddresses = 10_000

    /// The most `--max-concurrent-dataset-builds`: past a few, builds only share the cores and
    /// add to the heap.
    static let mostConcurrentDatasetBuilds = 64
    /// The longest `--dataset-build-wait`, in seconds: an hour.
    static let longestDatasetBuildWait: Int64 = 3_600

    /// Checks the ranges and writes the values into `configuration`.
    func apply(to configuration: inout ServerConfiguration) throws {
        guard quotaPoints > 0 else { throw fail("quota points \(quotaPoints) must be above 0", .usage) }
        guard quotaBytes > 0 else { throw fail("quota bytes \(quotaBytes) must be above 0", .usage) }
        guard (1...Int(Int32.max)).contains(maxUploadPoints) else {
            throw fail("max upload points \(maxUploadPoints) is outside 1…\(Int32.max)", .usage)
        }
        guard maxDatasetBytes > 0 else { throw fail("max dataset bytes \(maxDatasetBytes) must be above 0", .usage) }
        guard mappedDatasetBudget > 0 else { throw fail("mapped dataset budget \(mappedDatasetBudget) must be above 0", .usage) }
        guard (1...Self.mostConcurrentDatasetBuilds).contains(maxConcurrentDatasetBuilds) else {
            throw fail(
                "max concurrent dataset builds \(maxConcurrentDatasetBuilds) is outside 1…\(Self.mostConcurrentDatasetBuilds)", .usage)
        }
        guard (0...Self.longestDatasetBuildWait).contains(datasetBuildWait) else {
            throw fail("dataset build wait \(datasetBuildWait) is outside 0…\(Self.longestDatasetBuildWait) seconds", .usage)
        }
        guard writeRate > 0, writeRate <= 1_000_000 else {
            throw fail("write rate \(writeRate) must be above 0 and at most 1000000 per second", .usage)
        }
        guard (1...1_000_000).contains(writeBurst) else { throw fail("write burst \(writeBurst) is outside 1…1000000", .usage) }
        guard (1...10_000_000).contains(trackedAddresses) else {
            throw fail("tracked addresses \(trackedAddresses) is outside 1…10000000", .usage)
        }
        configuration.tokenLifetimeSeconds = tokenLifetime
        configuration.quotaPoints = quotaPoints
        configuration.quotaBytes = quotaBytes
        configuration.maximumUploadPoints = maxUploadPoints
        configuration.maximumDatasetBytes = maxDatasetBytes
        configuration.mappedDatasetBudget = mappedDatasetBudget
        configuration.maximumConcurrentDatasetBuilds = maxConcurrentDatasetBuilds
        configuration.datasetBuildWaitSeconds = datasetBuildWait
        configuration.writesPerSecond = writeRate
        configuration.writeBurst = writeBurst
        configuration.trackedAddresses = trackedAddresses
    }
}

/// `--token-lifetime` values: a whole number followed by `s`, `m`, `h` or `d`.
enum TokenLifetime {
    static let longestDays: Int64 = 36_500

    struct Refusal: Error, CustomStringConvertible {
        var description: String { "not a duration from 1s to \(TokenLifetime.longestDays)d such as 90d, 12h or 3600s" }
    }

    static func seconds(_ text: String) throws -> Int64 {
        guard let unit = text.last, let scale: Int64 = ["s": 1, "m": 60, "h": 3_600, "d": 86_400][unit],
            text.count <= 12, let count = Int64(text.dropLast()), count >= 1
        else { throw Refusal() }
        let (seconds, overflow) = count.multipliedReportingOverflow(by: scale)
        guard !overflow, seconds <= longestDays * 86_400 else { throw Refusal() }
        return seconds
    }
}
