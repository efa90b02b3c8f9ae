import ArgumentParser
import GeoNewsBoundaries
import GeoNewsCommandLine
import GeoNewsGeodesy
import GeoNewsTraces

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `geonews resolve`: every fix of a trace file to its country, streaming, on every core.
struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Resolve every position of CSV, NDJSON, GeoJSON or GPX input to its country.",
        discussion: """
            Every input record becomes one output row, in input order, with its original fields \
            plus country_iso2, suggested_iso2, suggestion_reason (inside | sovereign | offshore | \
            nearest-marker), distance_km, time_zone, border_distance_km with --border-distance, \
            region_iso3166_2, region_geonames and region_name with --region, place_name, \
            place_geonameid and place_distance_km with --place, and error. country_iso2 is the country whose land or territorial sea holds the fix, as \
            OpenStreetMap draws them, and empty/null beyond every territorial sea; time_zone is the \
            IANA zone (Etc/GMT±N on the open ocean); border_distance_km is the distance in km to \
            the nearest edge of that country's area, empty/null at sea; the region is the \
            first-level region of that country that holds the fix, or its nearest at sea, \
            empty/null with no country; the place is the nearest \
            populated place (GeoNames) in that country, or at sea with no country the nearest \
            within 50 km, empty/null where there is none. A bad record (not a number, \
            out of range, broken quoting, truncated) becomes a row whose error names the line and \
            the reason; the run goes on, and rows out always equal rows in.

            Reads standard input with `-` or no FILE, so it works as a stage of Spark's \
            RDD.pipe() or Hadoop streaming: `--format ndjson`, or headerless CSV with \
            `--no-header --lat-col 1 --lon-col 2`.

            Exit status: 0 when the run completed, even if some rows carry an error (count them \
            with --summary); 64 for bad usage (unknown format, no latitude column in the header); \
            65 when the data directory is missing or damaged (as every geonews command); 66 when \
            an input file cannot be opened; 74 when reading or writing fails. When the reader of \
            standard output goes away (`| head`), it stops quietly, killed by SIGPIPE as Unix \
            filters are (the shell shows 141).
            """
    )

    @Argument(help: "Input files; `-` or none reads standard input.")
    var files: [String] = []

    @Option(help: "Input format: csv, ndjson, geojson or gpx (default: from the extension, else sniffed).")
    var format: String?

    @Option(name: .customLong("output-format"), help: "csv, ndjson or geojson (default: the input's; csv for GPX).")
    var outputFormat: String?

    @Option(name: [.short, .long], help: "Write here instead of standard output.")
    var output: String?

    @Option(name: .customLong("lat-col"), help: "Latitude column: header name or 1-based position (JSON: key).")
    var latColumn: String?

    @Option(name: .customLong("lon-col"), help: "Longitude column: header name or 1-based position (JSON: key).")
    var lonColumn: String?

    @Option(name: .customLong("time-col"), help: "Time column (ISO 8601 or epoch seconds); default `time`.")
    var timeColumn: String?

    @Option(name: .customLong("trace-col"), help: "Trace id column; default `trace_id`.")
    var traceColumn: String?

    @Flag(name: .customLong("no-header"), help: "The CSV has no header line (and none is written); columns default to 1 = lat, 2 = lon.")
    var noHeader = false

    @Flag(
        name: .customLong("border-distance"),
        help: "Add a border_distance_km column: km to the nearest edge of the fix's country (land border or limit of its waters).")
    var borderDistance = false

    @Flag(
        name: .customLong("region"),
        help: "Add region_iso3166_2, region_geonames and region_name: the first-level region (state, province) of the fix's country.")
    var region = false

    @Flag(
        name: .customLong("place"),
        help: "Add place_name, place_geonameid and place_distance_km: the nearest populated place (GeoNames) in the fix's country.")
    var place = false

    @Flag(
        help:
            "Print a summary to standard error: counts, countries, speed, each trace's segments and crossings, with times in UTC and in each fix's local zone."
    )
    var summary = false

    @Option(name: .customLong("summary-json"), help: "Write the summary as JSON to this file.")
    var summaryJSON: String?

    @Option(help: "Worker threads, 1…1024 (default: the number of cores).")
    var workers: Int?

    @Flag(name: .customLong("no-progress"), help: "Never draw the progress bar.")
    var noProgress = false

    @OptionGroup var data: DataOptions

    /// Input size from which `--region` builds its edge index: 1 MB, about 50,000 rows of CSV.
    static let edgeIndexFromBytes = 1 << 20

    /// The total size of the named files; `nil` when one is standard input or cannot be read.
    static func inputBytes(_ files: [String]) -> Int? {
        var total = 0
        for file in files {
            var info = stat()
            guard file != "-", stat(file, &info) == 0 else { return nil }
            total += Int(info.st_size)
        }
        return files.isEmpty ? nil : total
    }

    func run() throws {
        var options = BatchResolveOptions()
        do {
            options.inputFormat = try format.map { try Self.format($0, flag: "--format") }
            options.outputFormat = try outputFormat.map { try Self.format($0, flag: "--output-format") }
        } catch let error as BatchResolveError {
            throw fail(error)
        }
        options.latitudeColumn = latColumn.map(ColumnSelector.init)
        options.longitudeColumn = lonColumn.map(ColumnSelector.init)
        options.timeColumn = timeColumn.map(ColumnSelector.init)
        options.traceColumn = traceColumn.map(ColumnSelector.init)
        options.hasHeader = !noHeader
        options.followsTraces = summary || summaryJSON != nil
        options.includesBorderDistance = borderDistance
        if place { options.places = try data.places() }
        if region {
            // The edge index takes about 0.3 s to build and saves about 10 µs a row: worth it from
            // a few tens of thousands of rows (a megabyte of input), or when the size is unknown.
            let index = try data.regionIndex()
            options.regions = Self.inputBytes(files).map { $0 < Self.edgeIndexFromBytes } ?? false ? index : index.withEdgeIndex()
        }
        if let workers {
            let counts = BatchResolveOptions.workerCounts
            guard counts.contains(workers) else {
                throw fail(.usage("--workers \(workers) is outside \(counts.lowerBound)…\(counts.upperBound)"))
            }
            options.workerCount = workers
        }

        // The suggestion never needs a border farther than the near-shore distance: bounding the
        // sea search there gives the same rows and keeps open-sea fixes as cheap as land ones.
        let resolver = try data.resolver(options: borderDistance ? .batchWithBorderDistance : .batch)
        let inputs = files.map { $0 == "-" ? BatchInput.standardInput : .file($0) }
        let meter = !noProgress && isatty(2) != 0 ? ProgressMeter() : nil
        let result: BatchSummary
        do {
            result = try BatchResolver(resolver: resolver, options: options).run(
                inputs: inputs, output: output.map(BatchOutput.file) ?? .standardOutput,
                progress: meter.map { m in { m.update($0) } })
        } catch {
            meter?.clear()
            throw fail(error)
        }
        meter?.clear()
        if summary { StandardError.write(result.text()) }
        if let summaryJSON {
            do { try result.writeJSON(to: summaryJSON) } catch { throw fail(error) }
        }
    }

    private static func format(_ text: String, flag: String) throws(BatchResolveError) -> RecordFormat {
        guard let f = RecordFormat(rawValue: text.lowercased()) else {
            throw .usage("\(flag) \(text) is not one of csv, ndjson, geojson, gpx")
        }
        return f
    }

    private func fail(_ error: BatchResolveError) -> ExitCode {
        StandardError.write("geonews resolve: \(error)\n")
        return ExitCode(error.exitCode)
    }
}
