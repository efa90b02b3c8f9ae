import GeoNews
import GeoNewsBenchmarking

#if canImport(Glibc)
import Glibc
#endif

/// Why a point file could not be read or written.
enum PointSetFileError: Error, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case badRow(path: String, line: Int, text: String)
    case empty(path: String)

    var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot open \(path): \(reason)"
        case .badRow(let path, let line, let text): return "\(path):\(line): '\(text)' is not 'lat,lon' in degrees"
        case .empty(let path): return "\(path) holds no lat,lon rows"
        }
    }
}

/// The benchmark's point sets: read from a CSV, or drawn with the index.
enum PointSets {
    /// Streams a CSV whose first two columns are latitude and longitude in degrees. A first
    /// line that does not parse is taken as a header.
    static func read(csv path: String) throws(PointSetFileError) -> [Coordinate] {
        guard let f = fopen(path, "r") else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { fclose(f) }
        var points: [Coordinate] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        var number = 0
        while getline(&line, &capacity, f) > 0, let line {
            number += 1
            let text = String(cString: line).trimmingSuffix()
            if text.isEmpty { continue }
            let fields = text.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count >= 2, let lat = Double(fields[0]), let lon = Double(fields[1]),
                let p = try? Coordinate.validated(latitude: lat, longitude: lon)
            else {
                if number == 1 { continue }
                throw .badRow(path: path, line: number, text: text)
            }
            points.append(p)
        }
        guard !points.isEmpty else { throw .empty(path: path) }
        return points
    }

    /// Writes `lat,lon` rows with every digit needed to read back the same doubles.
    static func write(_ points: [Coordinate], csv path: String) throws(PointSetFileError) {
        try writeRows(path: path, header: "lat,lon", count: points.count) { "\(points[$0].latitude),\(points[$0].longitude)" }
    }

    static func writeRows(path: String, header: String, count: Int, row: (Int) -> String) throws(PointSetFileError) {
        guard let f = fopen(path, "w") else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { fclose(f) }
        fputs(header + "\n", f)
        for i in 0..<count { fputs(row(i) + "\n", f) }
    }

    /// Writes one little-endian Int16 per point: the catalogue index, or -1 at sea.
    static func write(answers: [Int16], to path: String) throws(PointSetFileError) {
        guard let f = fopen(path, "w") else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { fclose(f) }
        answers.withUnsafeBufferPointer { _ = fwrite($0.baseAddress, 2, $0.count, f) }
    }

    /// `count` points uniform over the sphere's area that the index puts on land (`land` true)
    /// or at sea.
    static func sample(_ count: Int, land: Bool, index: CountryIndex, rng: inout SplitMix64) -> [Coordinate] {
        var points: [Coordinate] = []
        points.reserveCapacity(count)
        while points.count < count {
            let p = rng.onSphere()
            if (index.countryIndex(at: p) != nil) == land { points.append(p) }
        }
        return points
    }
}

extension String {
    func trimmingSuffix() -> String {
        var s = Substring(self)
        while let last = s.last, last == "\n" || last == "\r" || last == " " { s = s.dropLast() }
        return String(s)
    }
}
