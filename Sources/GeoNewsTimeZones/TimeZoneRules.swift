import GeoNewsData
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The UTC offsets of every IANA zone a ``Resolution`` can name, from `Data/timezones.json`
/// (the zone ids, in order) and `Data/zoneinfo.bin` (their compiled rules).
///
/// Immutable: one value serves any number of threads. A zone's TZif rules are parsed when
/// they are asked for, so loading costs one small JSON file and one `mmap`.
public final class TimeZoneRules: Sendable {
    private let zoneIndex: [String: Int]
    private let file: ZoneRulesFile
    /// Each zone's rules once read: a server answers the same few zones many times a second,
    /// and reading a TZif file costs more than the rest of an answer's time zone.
    private let parsed = Mutex<[Int: ZoneRules]>([:])

    public convenience init(catalogue: TimeZoneCatalogue, file: ZoneRulesFile) {
        self.init(zoneIDs: catalogue.zones.map(\.id), file: file)
    }

    private init(zoneIDs: [String], file: ZoneRulesFile) {
        var index: [String: Int] = [:]
        for (i, id) in zoneIDs.enumerated() { index[id] = i }
        zoneIndex = index
        self.file = file
    }

    /// Reads the zone ids of `timezones.json` and maps `zoneinfo.bin` from `directory`.
    public static func load(from directory: DataDirectory) throws(DataError) -> TimeZoneRules {
        let file = try ZoneRulesFile(directory: directory)
        // Every answer printed has a zone, so this is on the path of a cold start: the ids are
        // picked out of the file rather than decoding the whole document with JSONDecoder.
        var ids = try zoneIDs(MappedFile(path: directory.file(TimeZoneCatalogue.fileName)))
        if ids?.count != file.count {
            ids = try TimeZoneCatalogue.load(from: directory).zones.map(\.id)
        }
        guard let ids, ids.count == file.count else {
            throw .stale(
                path: directory.file(ZoneRulesFile.fileName),
                reason:
                    "it has \(file.count) zones, \(TimeZoneCatalogue.fileName) lists \(ids?.count ?? 0); run python3 Scripts/build_timezones.py --fetch"
            )
        }
        return TimeZoneRules(zoneIDs: ids, file: file)
    }

    /// The ids of `timezones.json`'s `zones`, in order, for a resolver: picked out of the text
    /// (``zoneIDs(_:)``) when as many as `zoneinfo.bin` has zones, else decoded in full. Decoding
    /// the whole document with JSONDecoder was a third of a cold start's instructions.
    package static func zoneIDs(in directory: DataDirectory) throws(DataError) -> [String] {
        if let count = try? ZoneRulesFile(directory: directory).count,
            let json = try? MappedFile(path: directory.file(TimeZoneCatalogue.fileName)),
            let ids = zoneIDs(json), ids.count == count
        {
            return ids
        }
        return try TimeZoneCatalogue.load(from: directory).zones.map(\.id)
    }

    /// The ids of `timezones.json`'s `zones`, in order, as `Scripts/build_timezones.py` writes
    /// them: after `"zones": [`, one `{"id": "…", …}` per zone, ids in IANA's characters.
    /// `nil` for anything else, which is then decoded in full.
    package static func zoneIDs(_ json: MappedFile) -> [String]? {
        let b = json.bytes
        guard let base = b.baseAddress else { return nil }
        // memchr for the first byte, memcmp for the rest: fast even in a debug build.
        func find(_ needle: [UInt8], from start: Int) -> Int? {
            var i = start
            while i + needle.count <= b.count, let hit = memchr(base + i, Int32(needle[0]), b.count - i - needle.count + 1) {
                i = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + i, needle, needle.count) == 0 { return i + needle.count }
                i += 1
            }
            return nil
        }
        guard var at = find(Array(#""zones": ["#.utf8), from: 0) else { return nil }
        let idKey = Array(#""id": ""#.utf8)
        var ids: [String] = []
        while let start = find(idKey, from: at) {
            var end = start
            while end < b.count, b[end] != UInt8(ascii: "\"") {
                let c = b[end]
                let isIANA =
                    (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39)
                    || c == UInt8(ascii: "/") || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                guard isIANA else { return nil }
                end += 1
            }
            guard end < b.count, end > start else { return nil }
            ids.append(String(decoding: UnsafeRawBufferPointer(rebasing: b[start..<end]), as: UTF8.self))
            at = end
        }
        return ids
    }

    /// The rules in the data directory found the default way (``/GeoNewsData/DataDirectory/locate()``),
    /// loaded once, on first use; `nil` when they cannot be found or read. Outputs that print
    /// an offset fall back to these when not handed rules of their own.
    public static let located: TimeZoneRules? = try? load(from: DataDirectory.locate())

    /// The offset of zone `id` at `instant` (seconds since 1970-01-01T00:00:00Z), daylight
    /// saving time included; `nil` for a zone these rules do not know.
    public func offset(ofZone id: String, at instant: Int64) -> UTCOffset? {
        guard let i = zoneIndex[id] else { return nil }
        if let rules = parsed.withLock({ $0[i] }) { return UTCOffset(seconds: rules.offset(at: instant)) }
        guard let rules = try? file.rules(ofZone: i) else { return nil }
        parsed.withLock { $0[i] = rules }
        return UTCOffset(seconds: rules.offset(at: instant))
    }

    /// ``offset(ofZone:at:)`` at a `Date`.
    public func offset(ofZone id: String, at date: Date) -> UTCOffset? {
        offset(ofZone: id, at: Int64(date.timeIntervalSince1970.rounded(.down)))
    }
}
