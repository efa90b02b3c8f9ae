import ArgumentParser
import GeoNewsCommandLine
import GeoNewsServer

/// The options that bound what one user or one client address may hold or do: token lifetime,
/// dataset quota and storage, write rate.
struct OwnershipOptions: ParsableArguments {
    private static let defaults = ServerConfiguration.defaults

    @Option(
        help: ArgumentHelp(
            "How long a bearer token lasts: a number with s, m, h or d (up to 36500d); older tokens get 401 (default: \(defaults.tokenLifetimeSeconds / 86_400)d).",
            valueName: "duration"),
        transform: TokenLifetime.seconds)
    var tokenLifetime: Int64?

    @Option(
        help: ArgumentHelp(
            "Most points one user's datasets may hold together; past it an upload gets 413 (default: \(defaults.quotaPoints)).",
            valueName: "points"))
    var quotaPoints: Int?

    @Option(
        help: ArgumentHelp(
            "Most bytes of upload one user's datasets may hold together; past it an upload gets 413 (default: \(defaults.quotaBytes)).",
            valueName: "bytes"))
    var quotaBytes: Int?

    @Option(
        help: ArgumentHelp(
            "Most points one upload may have; past it the upload gets 413 (default: \(defaults.maximumUploadPoints)).", valueName: "points")
    )
    var maxUploadPoints: Int?

    @Option(
        help: ArgumentHelp(
            "Most bytes the server's stored datasets (points and cluster archives) may take together; past it an upload gets 413 (default: \(defaults.maximumDatasetBytes)).",
            valueName: "bytes"))
    var maxDatasetBytes: Int?

    @Option(
        help: ArgumentHelp(
            "Most bytes of dataset archives mapped at once; past it the least recently used are unmapped, never deleted (default: \(defaults.mappedDatasetBudget)).",
            valueName: "bytes"))
    var mappedDatasetBudget: Int?

    @Option(
        help: ArgumentHelp(
            "Uploads clustered at once (each holds its points on the heap while it builds, about 300 MB per million points); more wait their turn (default: \(defaults.maximumConcurrentDatasetBuilds)).",
            valueName: "count"))
    var maxConcurrentDatasetBuilds: Int?

    @Option(
        help: ArgumentHelp(
            "Seconds an upload may wait for its turn to be clustered; past them it gets 503 with Retry-After; 0: no waiting (default: \(defaults.datasetBuildWaitSeconds)).",
            valueName: "seconds"))
    var datasetBuildWait: Int64?

    @Option(
        help: ArgumentHelp(
            "Writes (POST, PUT, DELETE on users, favourites, settings, datasets) one client address may make per second, after the burst; past it 429 (default: \(defaults.writesPerSecond)).",
            valueName: "per-second"),
        transform: { text in try FiniteNumber.parse(text) })
    var writeRate: Double?

    @Option(
        help: ArgumentHelp(
            "Writes one client address may make at once before --write-rate applies (default: \(defaults.writeBurst)).", valueName: "count")
    )
    var writeBurst: Int?

    @Option(
        help: ArgumentHelp(
            "Client addresses whose write rate is tracked at once, which bounds the memory the limit uses (default: \(defaults.trackedAddresses)).",
            valueName: "count"))
    var trackedAddresses: Int?

    /// Writes the values given into `configuration` (``ServerConfiguration/validate()`` checks
    /// their ranges).
    func apply(to configuration: inout ServerConfiguration) {
        if let tokenLifetime { configuration.tokenLifetimeSeconds = tokenLifetime }
        if let quotaPoints { configuration.quotaPoints = quotaPoints }
        if let quotaBytes { configuration.quotaBytes = quotaBytes }
        if let maxUploadPoints { configuration.maximumUploadPoints = maxUploadPoints }
        if let maxDatasetBytes { configuration.maximumDatasetBytes = maxDatasetBytes }
        if let mappedDatasetBudget { configuration.mappedDatasetBudget = mappedDatasetBudget }
        if let maxConcurrentDatasetBuilds { configuration.maximumConcurrentDatasetBuilds = maxConcurrentDatasetBuilds }
        if let datasetBuildWait { configuration.datasetBuildWaitSeconds = datasetBuildWait }
        if let writeRate { configuration.writesPerSecond = writeRate }
        if let writeBurst { configuration.writeBurst = writeBurst }
        if let trackedAddresses { configuration.trackedAddresses = trackedAddresses }
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
