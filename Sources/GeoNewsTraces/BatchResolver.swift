import GeoNewsBoundaries
import GeoNewsData
import GeoNewsTimeZones

/// How far a run has got, for a progress display.
public struct BatchProgress: Sendable {
    /// Input bytes resolved and written so far (all inputs).
    public var bytesDone: Int
    /// Total input bytes when every input's size is known (regular files).
    public var bytesTotal: Int?
    public var records: Int
    /// Seconds since the run started.
    public var seconds: Double
}

/// Resolves streams of positions (CSV, NDJSON, GeoJSON, GPX) to countries: every record in,
/// one row out, in input order.
///
/// A reader thread cuts the input into chunks of whole records; worker threads parse, resolve
/// and format chunks in parallel; the calling thread writes them in order. At most
/// ``BatchResolveOptions/chunksInFlight`` chunks exist at once, so memory does not grow with the
/// input. Bad records (unparsable numbers, out-of-range coordinates, broken quoting, truncated
/// lines) become rows whose `error` names the line and the reason; they never stop the run.
///
/// ```swift
/// let resolver = try CountryResolver.load(from: try DataDirectory.locate())
/// let summary = try BatchResolver(resolver: resolver)
///     .run(inputs: [.file("fixes.csv")], output: .file("fixes-resolved.csv"))
/// ```
public struct BatchResolver: Sendable {
    public let resolver: any CountryResolving
    public var options: BatchResolveOptions

    public init(resolver: any CountryResolving, options: BatchResolveOptions = BatchResolveOptions()) {
        self.resolver = resolver
        self.options = options
    }

    /// Reads `inputs` in turn (standard input when empty) and writes one output.
    ///
    /// - Parameter progress: called on the calling thread after each chunk is written.
    /// - Throws: ``BatchResolveError`` for unusable options or layouts, unopenable inputs and
    ///   read or write failures; never for bad records.
    /// - Returns: counts, speed and (with ``BatchResolveOptions/followsTraces``) journeys.
    @discardableResult
    public func run(
        inputs: [BatchInput], output: BatchOutput, progress: ((BatchProgress) -> Void)? = nil
    ) throws(BatchResolveError) -> BatchSummary {
        // Open every input first, so a missing file fails before any output is written.
        let inputs = inputs.isEmpty ? [BatchInput.standardInput] : inputs
        let sources = try inputs.map { (i) throws(BatchResolveError) in try ByteSource(i) }
        if case .file(let path) = output { try OutputFile.refuseToOverwrite(inputs, with: path) }
        return try run(sources: sources, output: output, progress: progress)
    }

    /// Reads an input that arrives in chunks, such as an HTTP request body, without holding
    /// it whole: `nextChunk` is called on the pipeline's reader thread whenever the bytes
    /// handed out so far are used up, may block until more arrive, and returns `nil` at the
    /// end. `name` is used in messages (and, with no ``BatchResolveOptions/inputFormat``, for
    /// choosing the format by extension).
    ///
    /// - Throws: as ``run(inputs:output:progress:)``; an error thrown by `nextChunk` becomes
    ///   ``BatchResolveError/readFailed(path:reason:)``.
    @discardableResult
    public func run(
        name: String, nextChunk: @escaping () throws -> [UInt8]?, output: BatchOutput,
        progress: ((BatchProgress) -> Void)? = nil
    ) throws(BatchResolveError) -> BatchSummary {
        try run(sources: [ByteSource(name: name, nextChunk: nextChunk)], output: output, progress: progress)
    }

    private func run(
        sources: [ByteSource], output: BatchOutput, progress: ((BatchProgress) -> Void)?
    ) throws(BatchResolveError) -> BatchSummary {
        let sink = try ByteSink(output)
        let totalBytes = sources.allSatisfy { $0.size != nil } ? sources.reduce(0) { $0 + ($1.size ?? 0) } : nil
        var run = RunState(sink: sink, started: ContinuousClock.now, totalBytes: totalBytes, progress: progress)
        var outputFormat = options.outputFormat
        var opened = false
        for source in sources {
            let format = try inputFormat(of: source)
            let out = outputFormat ?? (format == .gpx ? .csv : format)
            guard out != .gpx else { throw .usage("GPX output is not supported; choose csv, ndjson or geojson") }
            outputFormat = out
            if !opened {
                opened = true
                if out == .geojson { try sink.write("{\"type\":\"FeatureCollection\",\"features\":[") }
            }
            try resolve(source, format: format, output: out, &run)
        }
        if outputFormat == .geojson { try sink.write("\n]}\n") }
        try sink.finish()
        return run.finish(zoneRules: options.zoneRules ?? TimeZoneRules.located)
    }

    private func inputFormat(of source: ByteSource) throws(BatchResolveError) -> RecordFormat {
        if let f = options.inputFormat { return f }
        if source.name != "-", let f = RecordFormat.forPath(source.name) { return f }
        let head = try source.peek(64 * 1024)
        return head.withUnsafeBufferPointer { RecordFormat.sniff($0) }
    }

    private func resolve(_ source: ByteSource, format: RecordFormat, output: RecordFormat, _ run: inout RunState) throws(BatchResolveError)
    {
        let follows = options.followsTraces
        let columns = ResolvedColumns(
            includesBorderDistance: options.includesBorderDistance, places: options.places, regions: options.regions)
        switch format {
        case .csv:
            let reader = DelimitedChunkReader(
                source: source, quoteAware: true, chunkBytes: options.chunkBytes, maxRecordBytes: options.maxRecordBytes)
            var first = try reader.next()
            var header: [String]?
            if options.hasHeader {
                guard let chunk = first else { return }
                let split = try CSVHeader.split(chunk)
                header = split.names
                first = split.rest
            }
            let processor = CSVChunkProcessor(
                layout: try CSVLayout(header: header, options: options), resolver: resolver, output: output, followsTraces: follows,
                columns: columns)
            try run.writeHeader(processor.header())
            try pipeline(
                reader: ThreadConfined(reader), first: first, next: { (r) throws(BatchResolveError) in try r.next() },
                process: processor.process, &run)
        case .ndjson:
            let reader = DelimitedChunkReader(
                source: source, quoteAware: false, chunkBytes: options.chunkBytes, maxRecordBytes: options.maxRecordBytes)
            let processor = NDJSONChunkProcessor(
                keys: try JSONRecordKeys(options: options), resolver: resolver, output: output, followsTraces: follows, columns: columns)
            try run.writeHeader(processor.header())
            try pipeline(
                reader: ThreadConfined(reader), first: nil, next: { (r) throws(BatchResolveError) in try r.next() },
                process: processor.process, &run)
        case .geojson:
            let reader = GeoJSONFeatureReader(source: source, chunkBytes: options.chunkBytes)
            let processor = GeoJSONChunkProcessor(
                resolver: resolver, output: output, followsTraces: follows, keys: try JSONRecordKeys(options: options), columns: columns)
            try run.writeHeader(processor.header())
            try pipeline(
                reader: ThreadConfined(reader), first: nil, next: { (r) throws(BatchResolveError) in try r.next() },
                process: processor.process, &run)
        case .gpx:
            let reader = GPXPointReader(source: source, chunkBytes: options.chunkBytes)
            let processor = GPXChunkProcessor(resolver: resolver, output: output, followsTraces: follows, columns: columns)
            try run.writeHeader(processor.header())
            try pipeline(
                reader: ThreadConfined(reader), first: nil, next: { (r) throws(BatchResolveError) in try r.next() },
                process: processor.process, &run)
        }
    }

    private func pipeline<Reader, Chunk>(
        reader: ThreadConfined<Reader>, first: Chunk?,
        next: @escaping @Sendable (Reader) throws(BatchResolveError) -> Chunk?,
        process: @escaping @Sendable (Chunk) -> ProcessedChunk,
        _ run: inout RunState
    ) throws(BatchResolveError) {
        let firstChunk = ThreadConfined(first)
        let stages = OrderedChunkPipeline<Chunk, ProcessedChunk>(
            workerCount: options.workerCount, maxInFlight: options.effectiveChunksInFlight)
        try stages.run(
            read: { (emit) throws(BatchResolveError) in
                if let chunk = firstChunk.value, !emit(chunk) { return }
                while let chunk = try next(reader.value) {
                    if !emit(chunk) { return }
                }
            },
            process: process,
            write: { (chunk) throws(BatchResolveError) in try run.write(chunk) }
        )
    }
}

/// A value handed to exactly one other thread, which alone uses it from then on.
final class ThreadConfined<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The writer's side of a run: output, header, counts and journeys across all inputs.
private struct RunState {
    let sink: ByteSink
    let started: ContinuousClock.Instant
    let totalBytes: Int?
    let progress: ((BatchProgress) -> Void)?
    var summary = BatchSummary()
    /// Fixes counted by catalogue index across the chunks (``ChunkTally/byIndex``), named in
    /// ``finish(zoneRules:)``.
    var countsByIndex: [Int] = []
    var indexCatalogue: Catalogue?
    /// Rows counted by region index across the chunks (``OutputChunk/regionRows``) and the
    /// codes they are named by in ``finish(zoneRules:)``.
    var regionRows: [Int] = []
    var regionCodes: [String] = []
    var journeys = JourneyBuilder()
    var wroteHeader = false
    var wroteFeature = false
    var bytesDone = 0

    init(sink: ByteSink, started: ContinuousClock.Instant, totalBytes: Int?, progress: ((BatchProgress) -> Void)?) {
        self.sink = sink
        self.started = started
        self.totalBytes = totalBytes
        self.progress = progress
    }

    mutating func writeHeader(_ header: String) throws(BatchResolveError) {
        guard !wroteHeader, !header.isEmpty else { return }
        wroteHeader = true
        try sink.write(header)
    }

    mutating func write(_ chunk: ProcessedChunk) throws(BatchResolveError) {
        let out = chunk.output
        // GeoJSON features each start with ",\n"; the very first must not.
        if !wroteFeature, out.count >= 2, out.base[0] == UInt8(ascii: ","), out.base[1] == 0x0A {
            out.dropFirst(1)
        }
        if !out.isEmpty { wroteFeature = true }
        try sink.write(out.bytes)
        let t = chunk.tally
        summary.recordsRead += t.records
        summary.recordsResolved += t.resolved
        summary.recordsInError += t.errors
        summary.atSea += t.atSea
        for (country, n) in t.countries { summary.countries[country, default: 0] += n }
        for (region, n) in out.regionCounts { summary.regions[region, default: 0] += n }
        if !out.regionRows.isEmpty {
            if regionRows.isEmpty { regionCodes = out.regionCodes }
            regionRows.addCounts(out.regionRows, "one region index per run")
        }
        if !t.byIndex.isEmpty {
            if countsByIndex.isEmpty { indexCatalogue = t.indexCatalogue }
            precondition(indexCatalogue === t.indexCatalogue, "one catalogue per run")
            countsByIndex.addCounts(t.byIndex, "one catalogue per run")
        }
        for r in t.runs { journeys.add(r) }
        bytesDone += chunk.inputBytes
        if let progress {
            progress(BatchProgress(bytesDone: bytesDone, bytesTotal: totalBytes, records: summary.recordsRead, seconds: elapsed))
        }
    }

    var elapsed: Double {
        let d = ContinuousClock.now - started
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// The summary; `zoneRules` is asked for only when a trace has a fix with a zone.
    func finish(zoneRules: @autoclosure () -> TimeZoneRules?) -> BatchSummary {
        var s = summary
        if let indexCatalogue {
            // Entries that share a code (Somaliland and Somalia, SO) add up under it.
            for (i, n) in countsByIndex.enumerated() where n > 0 {
                let country = indexCatalogue.countries[i]
                s.countries[country.iso2 ?? country.id, default: 0] += n
            }
        }
        // Regions that share a code add up under it, as the general path counts them.
        for (k, n) in regionRows.enumerated() where n > 0 { s.regions[regionCodes[k], default: 0] += n }
        s.seconds = elapsed
        s.pointsPerSecond = s.seconds > 0 ? Double(s.recordsRead) / s.seconds : 0
        s.traces = journeys.summaries(zoneRules: zoneRules())
        return s
    }
}

/// Splits a CSV header record off the first chunk.
enum CSVHeader {
    static func split(_ chunk: DelimitedChunk) throws(BatchResolveError) -> (names: [String], rest: DelimitedChunk) {
        if chunk.unreadableReason != nil {
            throw .usage("the CSV header on line \(chunk.firstLine) cannot be read: \(chunk.unreadableReason!)")
        }
        return chunk.bytes.withUnsafeBufferPointer { b in
            var cursor = CSVRecordCursor(b)
            var fields: [CSVField] = []
            guard let record = cursor.next(fields: &fields) else { return ([], chunk) }
            let names = fields.map { cursor.text($0) }
            let rest = DelimitedChunk(
                bytes: Array(b[cursor.position...]), firstLine: chunk.firstLine + record.lines,
                hasQuotes: chunk.hasQuotes, unreadableReason: nil)
            return (names, rest)
        }
    }
}
