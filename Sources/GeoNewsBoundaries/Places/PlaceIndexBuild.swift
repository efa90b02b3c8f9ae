import CZlib
import GeoNewsData
import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds `places.bin` (``PlaceIndexFormat``) from `places.tsv.gz`: the text is inflated and
/// parsed a buffer at a time, each field bounded where it is read, and a bad line stops the build
/// naming its number.
enum PlaceIndexBuild {
    /// One place as parsed.
    struct Row {
        var id: UInt32
        var latE5: Int32
        var lonE5: Int32
        var population: UInt32
        var country: UInt16
        var name: Range<Int>
        var admin1: Range<Int>
    }

    /// The gzip trailer of the file at `path` (CRC-32 and ISIZE) and its size, read without
    /// reading the rest.
    static func identity(ofSource path: String) throws(DataError) -> (bytes: UInt64, crc: UInt32, size: UInt32) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        guard info.st_size >= 18 else { throw .corrupt(path: path, reason: "too short for a gzip file (\(info.st_size) bytes)") }
        var trailer = [UInt8](repeating: 0, count: 8)
        let n = trailer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 8, off_t(info.st_size - 8)) }
        guard n == 8 else { throw .unreadable(path: path, reason: "cannot read its last 8 bytes") }
        func le32(_ at: Int) -> UInt32 { (0..<4).reduce(UInt32(0)) { $0 | UInt32(trailer[at + $1]) << (8 * UInt32($1)) } }
        return (UInt64(info.st_size), le32(0), le32(4))
    }

    /// The whole index for the source at `path`.
    static func build(source path: String) throws(DataError) -> [UInt8] {
        let identity = try identity(ofSource: path)
        var rows: [Row] = []
        var strings: [UInt8] = []
        try parse(path: path) { (line, number) throws(DataError) in
            try rows.append(row(line, number: number, path: path, strings: &strings))
        }
        guard !rows.isEmpty else { throw .corrupt(path: path, reason: "it holds no place") }
        guard rows.count <= PlaceIndexFormat.maxPlaces, strings.count <= PlaceIndexFormat.maxStringBytes else {
            throw .corrupt(path: path, reason: "more than \(PlaceIndexFormat.maxPlaces) places or 1 GB of names")
        }
        return encode(rows: rows, strings: strings, identity: identity)
    }

    // MARK: reading the text

    /// Calls `line` with each line after the header (without its newline) and its 1-based number.
    static func parse(path: String, line: (UnsafeBufferPointer<UInt8>, Int) throws(DataError) -> Void) throws(DataError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let chunk = 1 << 16
        let input = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        let z = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        z.initialize(to: z_stream())
        defer {
            input.deallocate()
            output.deallocate()
            z.deallocate()
        }
        // 16 + 15: a gzip wrapper and zlib's largest window.
        guard inflateInit2_(z, 16 + 15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .unreadable(path: path, reason: "zlib could not start")
        }
        defer { inflateEnd(z) }
        var pending: [UInt8] = []  // the start of a line the last buffer cut
        var number = 0
        var ended = false
        let maxLine = 4096
        func lines(_ bytes: UnsafeBufferPointer<UInt8>) throws(DataError) {
            var start = 0
            for i in 0..<bytes.count where bytes[i] == UInt8(ascii: "\n") {
                number += 1
                if pending.isEmpty {
                    if number > 1 { try line(UnsafeBufferPointer(rebasing: bytes[start..<i]), number) }
                } else {
                    pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                    if number > 1 { try pending.withUnsafeBufferPointer { (p) throws(DataError) in try line(p, number) } }
                    pending.removeAll(keepingCapacity: true)
                }
                start = i + 1
            }
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            guard pending.count <= maxLine else {
                throw .corrupt(path: path, reason: "line \(number + 1) is longer than \(maxLine) bytes")
            }
        }
        while !ended {
            let n = read(fd, input, chunk)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            guard n > 0 else { throw .corrupt(path: path, reason: "the gzip stream ends early") }
            z.pointee.next_in = input
            z.pointee.avail_in = UInt32(n)
            repeat {
                z.pointee.next_out = output
                z.pointee.avail_out = UInt32(chunk)
                let status = inflate(z, Z_NO_FLUSH)
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    throw .corrupt(path: path, reason: "not a gzip stream zlib can read (status \(status))")
                }
                try lines(UnsafeBufferPointer(start: output, count: chunk - Int(z.pointee.avail_out)))
                if status == Z_STREAM_END {
                    ended = true
                    break
                }
            } while z.pointee.avail_out == 0
        }
        guard pending.isEmpty else { throw .corrupt(path: path, reason: "line \(number + 1) has no newline at the end") }
    }

    /// One line: geonameid, name, lat, lon, country, admin1, population.
    static func row(_ line: UnsafeBufferPointer<UInt8>, number: Int, path: String, strings: inout [UInt8]) throws(DataError) -> Row {
        var fields: [Range<Int>] = []
        var start = 0
        for i in 0..<line.count where line[i] == UInt8(ascii: "\t") {
            fields.append(start..<i)
            start = i + 1
        }
        fields.append(start..<line.count)
        func bad(_ what: String) -> DataError { .corrupt(path: path, reason: "line \(number): \(what)") }
        guard fields.count == 7 else { throw bad("\(fields.count) fields, not 7") }
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: line[r]), as: UTF8.self) }
        guard let id = unsigned(line, fields[0], limit: UInt64(UInt32.max)), id > 0 else {
            throw bad("geonameid \"\(text(fields[0]))\" is not a positive 32-bit number")
        }
        guard let lat = fixed5(line, fields[2]), abs(lat) <= 9_000_000 else {
            throw bad("latitude \"\(text(fields[2]))\" is not a number of at most 5 decimals within ±90")
        }
        guard let lon = fixed5(line, fields[3]), abs(lon) <= 18_000_000 else {
            throw bad("longitude \"\(text(fields[3]))\" is not a number of at most 5 decimals within ±180")
        }
        let c = fields[4]
        guard c.count == 2, line[c.lowerBound] >= 65, line[c.lowerBound] <= 90, line[c.lowerBound + 1] >= 65, line[c.lowerBound + 1] <= 90
        else { throw bad("country \"\(text(c))\" is not two capital letters") }
        guard let population = unsigned(line, fields[6], limit: UInt64(UInt32.max)) else {
            throw bad("population \"\(text(fields[6]))\" is not a 32-bit count")
        }
        guard !fields[1].isEmpty, fields[5].count <= 20 else { throw bad("an empty name or an admin1 code over 20 bytes") }
        let name = strings.count..<(strings.count + fields[1].count)
        strings.append(contentsOf: UnsafeBufferPointer(rebasing: line[fields[1]]))
        let admin1 = strings.count..<(strings.count + fields[5].count)
        strings.append(contentsOf: UnsafeBufferPointer(rebasing: line[fields[5]]))
        return Row(
            id: UInt32(id), latE5: Int32(lat), lonE5: Int32(lon), population: UInt32(population),
            country: UInt16(line[c.lowerBound]) << 8 | UInt16(line[c.lowerBound + 1]), name: name, admin1: admin1)
    }

    /// Decimal digits only, at most `limit`.
    static func unsigned(_ line: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, limit: UInt64) -> UInt64? {
        guard !r.isEmpty, r.count <= 19 else { return nil }
        var v: UInt64 = 0
        for i in r {
            let d = line[i] &- 48
            guard d < 10 else { return nil }
            v = v * 10 + UInt64(d)
        }
        return v <= limit ? v : nil
    }

    /// `-12.34567` → -1234567: an optional sign, digits, and at most 5 decimals.
    static func fixed5(_ line: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Int64? {
        // 12 characters hold "-180.00000" with room, and 12 digits times 1e5 stay far inside Int64.
        guard !r.isEmpty, r.count <= 12 else { return nil }
        var i = r.lowerBound
        let negative = line[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var whole: Int64 = 0, digits = 0, decimals = -1
        while i < r.upperBound {
            let b = line[i]
            if b == UInt8(ascii: ".") {
                guard decimals < 0 else { return nil }
                decimals = 0
            } else {
                let d = b &- 48
                guard d < 10 else { return nil }
                whole = whole * 10 + Int64(d)
                digits += 1
                if decimals >= 0 { decimals += 1 }
            }
            i += 1
        }
        guard digits > 0, decimals <= 5 else { return nil }
        for _ in 0..<(5 - max(decimals, 0)) { whole *= 10 }
        return negative ? -whole : whole
    }

    // MARK: the file

    /// A place's unit vector: the search's (``PlaceIndex/unitVector(_:)``), from the same degrees.
    static func unitVector(latE5: Int32, lonE5: Int32) -> (Double, Double, Double) {
        PlaceIndex.unitVector(Coordinate(latitude: Double(latE5) / 1e5, longitude: Double(lonE5) / 1e5))
    }

    /// Orders `items[range]` as an implicit k-d tree over `point`, splitting on axis `depth % 3`;
    /// ties by GeoNames id (`id`), so the file is the same on every build.
    static func arrange(
        _ items: inout [Int32], _ range: Range<Int>, depth: Int, point: [(Double, Double, Double)], id: [UInt32]
    ) {
        guard range.count > 1 else { return }
        let axis = depth % 3
        func key(_ i: Int32) -> (Double, UInt32) {
            let p = point[Int(i)]
            return (axis == 0 ? p.0 : axis == 1 ? p.1 : p.2, id[Int(i)])
        }
        let mid = (range.lowerBound + range.upperBound) / 2
        select(&items, range, mid, key)
        arrange(&items, range.lowerBound..<mid, depth: depth + 1, point: point, id: id)
        arrange(&items, (mid + 1)..<range.upperBound, depth: depth + 1, point: point, id: id)
    }

    /// Puts the element of rank `k` at `k`, the smaller before and the larger after (quickselect,
    /// middle pivot; keys are distinct through the id).
    static func select(_ a: inout [Int32], _ range: Range<Int>, _ k: Int, _ key: (Int32) -> (Double, UInt32)) {
        var lo = range.lowerBound, hi = range.upperBound - 1
        while lo < hi {
            let pivot = key(a[(lo + hi) / 2])
            var i = lo, j = hi
            while i <= j {
                while key(a[i]) < pivot { i += 1 }
                while pivot < key(a[j]) { j -= 1 }
                if i <= j {
                    a.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { return }
        }
    }

    /// Sets the `reach` bit of every 1/4° cell that a disc of ``PlaceIndexFormat/reachKm`` (and
    /// a margin) around the place may touch: its rows by latitude, and by longitude the disc's
    /// widest extent within those latitudes, or whole rows near a pole. Marking too many cells
    /// only costs a search; one too few would lose a place, so every bound is taken wide.
    static func markReach(latE5: Int32, lonE5: Int32, into out: inout [UInt8], at base: Int) {
        let perDegree = Double(PlaceIndexFormat.reachCellsPerDegree)
        let columns = PlaceIndexFormat.reachColumns, rows = PlaceIndexFormat.reachRows
        let lat = Double(latE5) / 1e5, lon = Double(lonE5) / 1e5
        // The disc's angular radius in degrees, with 2 km to spare.
        let r = (PlaceIndexFormat.reachKm + 2) / 6371.0088 * 180 / .pi
        let top = min(90, lat + r), bottom = max(-90, lat - r)
        let first = max(0, Int(((bottom + 90) * perDegree).rounded(.down))),
            last = min(rows - 1, Int(((top + 90) * perDegree).rounded(.down)))
        let widest = max(abs(top), abs(bottom))
        let wholeRows = widest >= 85
        let halfWidth = wholeRows ? 180 : r / cos(widest * .pi / 180) * 1.05 + 0.05
        let west = Int(((lon - halfWidth + 180) * perDegree).rounded(.down)),
            east = Int(((lon + halfWidth + 180) * perDegree).rounded(.down))
        for row in first...last {
            for c in (wholeRows ? 0 : west)...(wholeRows ? columns - 1 : east) {
                let column = ((c % columns) + columns) % columns
                let bit = row * columns + column
                out[base + bit / 8] |= 1 << UInt8(bit % 8)
            }
        }
    }

    static func encode(rows: [Row], strings: [UInt8], identity: (bytes: UInt64, crc: UInt32, size: UInt32)) -> [UInt8] {
        let point = rows.map { unitVector(latE5: $0.latE5, lonE5: $0.lonE5) }
        let id = rows.map(\.id)
        // Group by country (by code, then id), then each group into its tree.
        var order = (0..<Int32(rows.count)).sorted { (rows[Int($0)].country, id[Int($0)]) < (rows[Int($1)].country, id[Int($1)]) }
        var countries: [(code: UInt16, range: Range<Int>)] = []
        var start = 0
        for i in 1...order.count where i == order.count || rows[Int(order[i])].country != rows[Int(order[start])].country {
            countries.append((rows[Int(order[start])].country, start..<i))
            start = i
        }
        for c in countries { arrange(&order, c.range, depth: 0, point: point, id: id) }
        // The tree over every place, in file positions.
        var position = [Int32](repeating: 0, count: rows.count)
        for (k, i) in order.enumerated() { position[Int(i)] = Int32(k) }
        var global = Array(0..<Int32(rows.count))
        arrange(&global, 0..<global.count, depth: 0, point: point, id: id)
        let sections = PlaceIndexFormat.Sections(places: rows.count, countries: countries.count, stringBytes: strings.count)
        var out = [UInt8](repeating: 0, count: sections.end)
        func put<T: FixedWidthInteger>(_ v: T, _ at: Int) {
            withUnsafeBytes(of: v.littleEndian) { out.replaceSubrange(at..<(at + MemoryLayout<T>.size), with: $0) }
        }
        out.replaceSubrange(0..<8, with: PlaceIndexFormat.magic)
        put(PlaceIndexFormat.version, 8)
        put(UInt32(rows.count), 12)
        put(identity.bytes, 16)
        put(identity.crc, 24)
        put(identity.size, 28)
        put(UInt32(countries.count), 32)
        put(UInt32(strings.count), 36)
        for (k, c) in countries.enumerated() {
            let at = sections.countries + k * PlaceIndexFormat.countryBytes
            out[at] = UInt8(c.code >> 8)
            out[at + 1] = UInt8(c.code & 0xFF)
            put(UInt32(c.range.lowerBound), at + 4)
            put(UInt32(c.range.count), at + 8)
        }
        // The strings in file order, so that a country's names lie together.
        var text: [UInt8] = []
        text.reserveCapacity(strings.count)
        for (k, i) in order.enumerated() {
            let r = rows[Int(i)]
            let p = point[Int(i)]
            let at = sections.points + k * PlaceIndexFormat.pointBytes
            put(p.0.bitPattern, at)
            put(p.1.bitPattern, at + 8)
            put(p.2.bitPattern, at + 16)
            let rec = sections.records + k * PlaceIndexFormat.recordBytes
            put(r.latE5, rec)
            put(r.lonE5, rec + 4)
            put(r.id, rec + 8)
            put(r.population, rec + 12)
            put(UInt32(text.count), sections.stringOffsets + 8 * k)
            text += strings[r.name]
            put(UInt32(text.count), sections.stringOffsets + 8 * k + 4)
            text += strings[r.admin1]
        }
        put(UInt32(text.count), sections.stringOffsets + 8 * rows.count)
        for (k, i) in global.enumerated() { put(UInt32(position[Int(i)]), sections.global + 4 * k) }
        for r in rows { markReach(latE5: r.latE5, lonE5: r.lonE5, into: &out, at: sections.reach) }
        out.replaceSubrange(sections.strings..<sections.end, with: text)
        return out
    }
}
