import GeoNewsBoundaries
import GeoNewsGeodesy

/// Resolves the records of one CSV chunk and writes them in the output format.
///
/// CSV to CSV copies each record's bytes verbatim and appends the resolved columns: no field is
/// decoded except the coordinates (and time and trace id when traces are followed).
struct CSVChunkProcessor: Sendable {
    let layout: CSVLayout
    let resolver: any CountryResolving
    let output: RecordFormat
    let followsTraces: Bool
    let columns: ResolvedColumns
    /// A resolver that answers by index, and the texts its answers are written with: a
    /// quote-free chunk written as CSV goes through it (see `processPlain`).
    private let indexed: (resolver: any IndexedCountryResolving, text: IndexedColumnText)?

    init(layout: CSVLayout, resolver: any CountryResolving, output: RecordFormat, followsTraces: Bool, columns: ResolvedColumns) {
        self.layout = layout
        self.resolver = resolver
        self.output = output
        self.followsTraces = followsTraces
        self.columns = columns
        indexed = (resolver as? any IndexedCountryResolving).map {
            (
                $0,
                IndexedColumnText(
                    catalogue: $0.catalogue, zoneIDs: $0.zoneIDs, includesBorderDistance: columns.includesBorderDistance,
                    places: columns.places, regions: columns.regions)
            )
        }
    }

    private var flatWriter: FlatRecordWriter {
        FlatRecordWriter(
            format: output, names: (0..<max(1, layout.names.count, layout.longitude + 1, layout.latitude + 1)).map(layout.name(ofField:)),
            columns: columns)
    }

    /// Whether quote-free chunks written as CSV go through the resolver's answers by index.
    var writesByIndex: Bool { indexed != nil }

    /// The output header line(s) for this layout, or nothing without a header.
    func header() -> String {
        guard !layout.names.isEmpty, output == .csv else { return "" }
        return flatWriter.csvHeader()
    }

    func process(_ chunk: DelimitedChunk) -> ProcessedChunk {
        let out = OutputChunk(capacity: chunk.bytes.count + chunk.bytes.count / 2 + 1024)
        var tally = ChunkTally(followsTraces: followsTraces)
        let flat = output == .csv ? nil : flatWriter
        chunk.bytes.withUnsafeBufferPointer { b in
            if let reason = chunk.unreadableReason {
                tally.countError()
                writeFailure(RecordFailure(line: chunk.firstLine, reason), verbatim: nil, fields: [], CSVRecordCursor(b), flat, out)
                return
            }
            var fields: [CSVField] = []
            fields.reserveCapacity(16)
            if !chunk.hasQuotes, flat == nil, !layout.isTrace, let indexed {
                processPlain(b, firstLine: chunk.firstLine, indexed.resolver, indexed.text, &fields, &tally, out)
                return
            }
            var cursor = CSVRecordCursor(b)
            var line = chunk.firstLine
            while let record = cursor.next(fields: &fields) {
                let recordLine = line
                line += record.lines
                process(record, fields, cursor, line: recordLine, flat, &tally, out)
            }
        }
        tally.finish(catalogue: indexed?.resolver.catalogue)
        return ProcessedChunk(output: out, tally: tally, inputBytes: chunk.bytes.count)
    }

    /// How many records of a quote-free chunk are scanned before their positions are resolved
    /// together (see ``IndexedCountryResolving/resolveIndexed(_:into:)``).
    static let plainBlock = 256

    /// A chunk without quotes, written as CSV by a resolver that answers by index: each line is
    /// scanned once for its two coordinates and copied whole, without listing its fields. The
    /// positions of a block of lines are resolved together, then the block is written in
    /// order. Any record that does not resolve (blank, too wide or too short, not a number)
    /// goes through the cursor, so its row is the one the general path writes.
    private func processPlain(
        _ b: UnsafeBufferPointer<UInt8>, firstLine: Int, _ resolver: any IndexedCountryResolving, _ text: IndexedColumnText,
        _ fields: inout [CSVField], _ tally: inout ChunkTally, _ out: OutputChunk
    ) {
        let width = layout.names.isEmpty ? Int.max : layout.names.count
        let countryCount = resolver.catalogue.countries.count
        let n = Self.plainBlock
        // One block's rows, positions and answers, in buffers made once per chunk.
        // Fixes per country, counted here and handed to the tally once.
        // Rows per region written, for the summary, handed to the chunk once.
        let regionCount = text.regions?.regionCount ?? 0
        withUnsafeTemporaryAllocation(of: Int.self, capacity: countryCount + regionCount) { counts in
            counts.initialize(repeating: 0)
            var atSea = 0
            defer {
                tally.countResolved(byIndex: UnsafeBufferPointer(rebasing: counts[..<countryCount]), atSea: atSea)
                text.countRegions(UnsafeBufferPointer(rebasing: counts[countryCount...]), in: out)
            }
            withUnsafeTemporaryAllocation(of: PlainRow.self, capacity: n) { rows in
                withUnsafeTemporaryAllocation(of: Coordinate.self, capacity: n) { positions in
                    withUnsafeTemporaryAllocation(of: IndexedResolution.self, capacity: n) { answers in
                        var line = firstLine
                        var i = 0
                        while i < b.count {
                            var count = 0, resolving = 0
                            while i < b.count && count < n {
                                let record = PlainCSVRecord.scan(b, from: i, firstField: layout.latitude, secondField: layout.longitude)
                                var resolves = false
                                if !record.isBlank, record.fieldCount <= width, layout.latitude < record.fieldCount,
                                    layout.longitude < record.fieldCount,
                                    case .success(let position) = CoordinateText.coordinate(
                                        latitude: UnsafeBufferPointer(rebasing: b[record.first]),
                                        longitude: UnsafeBufferPointer(rebasing: b[record.second]))
                                {
                                    positions.initializeElement(at: resolving, to: position)
                                    resolving += 1
                                    resolves = true
                                }
                                rows.initializeElement(
                                    at: count,
                                    to: PlainRow(
                                        start: record.start, end: record.end, fieldCount: record.fieldCount, line: line, resolves: resolves)
                                )
                                count += 1
                                line += record.lines
                                i = record.next
                            }
                            resolver.resolveIndexed(UnsafeBufferPointer(rebasing: positions[..<resolving]), into: answers)
                            var k = 0
                            for row in rows[..<count] {
                                if row.resolves {
                                    let r = answers[k]
                                    k += 1
                                    if r.country >= 0 { counts[Int(r.country)] += 1 } else { atSea += 1 }
                                    let region = text.appendRow(
                                        UnsafeBufferPointer(rebasing: b[row.start..<row.end]),
                                        missingFields: layout.names.count - row.fieldCount, r, to: out)
                                    if region >= 0 { counts[countryCount &+ region] += 1 }
                                } else {
                                    var cursor = CSVRecordCursor(b, at: row.start)
                                    if let general = cursor.next(fields: &fields) {
                                        process(general, fields, cursor, line: row.line, nil, &tally, out)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// One line of a quote-free block: where it is, how many fields it has, its line number,
    /// and whether its position went to the resolver.
    private struct PlainRow {
        let start: Int, end: Int, fieldCount: Int, line: Int
        let resolves: Bool
    }

    /// One record from the cursor: resolved and written, or written as an error row.
    @inline(__always)
    private func process(
        _ record: CSVRecordCursor.Record, _ fields: [CSVField], _ cursor: CSVRecordCursor, line: Int, _ flat: FlatRecordWriter?,
        _ tally: inout ChunkTally, _ out: OutputChunk
    ) {
        if record.isBlank && fields.count == 1 && !fields[0].quoted { return }
        let b = cursor.bytes
        switch coordinate(record, fields, cursor) {
        case .failure(let reason):
            tally.countError()
            let failure = RecordFailure(line: line, reason.text)
            let verbatim = record.problem == nil ? record : nil
            writeFailure(failure, verbatim: verbatim, fields: fields, cursor, flat, out)
        case .success(let position):
            let r = resolver.resolve(position)
            tally.countResolved(
                r, trace: field(layout.trace, fields, b), time: layout.time.map { field($0, fields, b) },
                inJourney: layout.isTrace)
            if let flat {
                flat.write(values(fields, cursor), outcome: .success(r), to: out)
            } else {
                copyRecord(record.start..<record.end, fieldCount: fields.count, b, out)
                columns.appendCSV(r, to: out)
                out.append(UInt8(ascii: "\n"))
            }
        }
    }

    @inline(__always)
    private func coordinate(
        _ record: CSVRecordCursor.Record, _ fields: [CSVField], _ cursor: CSVRecordCursor
    ) -> Result<Coordinate, ReasonText> {
        if let problem = record.problem { return .failure(ReasonText(problem.description)) }
        if !layout.names.isEmpty, fields.count > layout.names.count {
            return .failure(ReasonText("the record has \(fields.count) fields, the header has \(layout.names.count)"))
        }
        guard layout.latitude < fields.count else {
            return .failure(
                ReasonText(
                    "no latitude: it is column \(layout.latitude + 1) and the record has \(fields.count) field\(fields.count == 1 ? "" : "s")"
                ))
        }
        guard layout.longitude < fields.count else {
            return .failure(
                ReasonText(
                    "no longitude: it is column \(layout.longitude + 1) and the record has \(fields.count) field\(fields.count == 1 ? "" : "s")"
                ))
        }
        return CoordinateText.coordinate(latitude: cursor.raw(fields[layout.latitude]), longitude: cursor.raw(fields[layout.longitude]))
    }

    @inline(__always)
    private func field(_ index: Int?, _ fields: [CSVField], _ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let index, index < fields.count else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(rebasing: b[fields[index].start..<fields[index].end])
    }

    /// The record's bytes, padded with empty fields up to the header's width so that the
    /// resolved columns always land under their names.
    @inline(__always)
    private func copyRecord(_ record: Range<Int>, fieldCount: Int, _ b: UnsafeBufferPointer<UInt8>, _ out: OutputChunk) {
        out.append(b.baseAddress! + record.lowerBound, count: record.count)
        var missing = layout.names.count - fieldCount
        while missing > 0 { out.append(UInt8(ascii: ",")); missing -= 1 }
    }

    private func values(_ fields: [CSVField], _ cursor: CSVRecordCursor) -> [FieldValue] {
        let width = max(fields.count, layout.names.count, layout.longitude + 1, layout.latitude + 1)
        return (0..<width).map { $0 < fields.count ? .text(cursor.text(fields[$0])) : .absent }
    }

    /// An error row. A record whose quoting is broken cannot be copied without breaking the
    /// output's own quoting, so its original columns are left empty; the message names its line.
    private func writeFailure(
        _ failure: RecordFailure, verbatim: CSVRecordCursor.Record?, fields: [CSVField],
        _ cursor: CSVRecordCursor, _ flat: FlatRecordWriter?, _ out: OutputChunk
    ) {
        if let flat {
            let values = verbatim == nil ? [] : self.values(fields, cursor)
            flat.write(
                values + Array(repeating: .absent, count: max(0, flat.names.count - values.count)),
                outcome: .failure(failure), to: out)
            return
        }
        if let verbatim, layout.names.isEmpty || fields.count <= layout.names.count {
            copyRecord(verbatim.start..<verbatim.end, fieldCount: fields.count, cursor.bytes, out)
        } else {
            for _ in 1..<max(1, layout.names.count) { out.append(UInt8(ascii: ",")) }
        }
        columns.appendCSVError(failure.message, to: out)
        out.append(UInt8(ascii: "\n"))
    }
}
