import GeoNewsBoundaries
import GeoNewsGeodesy

/// Resolves GPX points, whose fields the reader has already taken apart.
struct GPXChunkProcessor: Sendable {
    let resolver: any CountryResolving
    let output: RecordFormat
    let followsTraces: Bool
    let columns: ResolvedColumns

    private var writer: FlatRecordWriter {
        FlatRecordWriter(format: output == .gpx ? .csv : output, names: GPXPoint.fieldNames, columns: columns)
    }

    func header() -> String { writer.format == .csv ? writer.csvHeader() : "" }

    func process(_ points: [GPXPoint]) -> ProcessedChunk {
        let out = OutputChunk(capacity: points.count * 120 + 1024)
        var tally = ChunkTally(followsTraces: followsTraces)
        let writer = self.writer
        for p in points {
            let outcome = resolve(p)
            switch outcome {
            case .success(let r):
                var trace = p.traceID, time = p.time
                trace.withUTF8 { traceBytes in
                    if time != nil {
                        time!.withUTF8 { tally.countResolved(r, trace: traceBytes, time: $0) }
                    } else {
                        tally.countResolved(r, trace: traceBytes, time: nil)
                    }
                }
            case .failure:
                tally.countError()
            }
            writer.write(p.fieldValues, outcome: outcome, to: out)
        }
        tally.finish()
        return ProcessedChunk(output: out, tally: tally)
    }

    private func resolve(_ p: GPXPoint) -> Result<Resolution, RecordFailure> {
        if let problem = p.problem { return .failure(RecordFailure(line: p.line, problem)) }
        guard var lat = p.latitude else { return .failure(RecordFailure(line: p.line, "\(p.kind) has no lat attribute")) }
        guard var lon = p.longitude else { return .failure(RecordFailure(line: p.line, "\(p.kind) has no lon attribute")) }
        let position = lat.withUTF8 { la in lon.withUTF8 { lo in CoordinateText.coordinate(latitude: la, longitude: lo) } }
        switch position {
        case .success(let c): return .success(resolver.resolve(c))
        case .failure(let reason): return .failure(RecordFailure(line: p.line, reason.text))
        }
    }
}
