#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The UTC offsets of every IANA zone a ``Resolution`` can name, from `Data/timezones.json`
/// (the zone ids, in order) and `Data/zoneinfo.bin` (their compiled rules).
///
/// Immutable: one value serves any number of threads. A zone's TZif rules are parsed when
/// they are asked for, so loading costs one small JSON file and one `mmap`.
public final class TimeZoneRules: Sendable {
    private let zoneIndex: [String: Int]
    private let file: ZoneRulesFile

    public init(catalogue: TimeZoneCatalogue, file: ZoneRulesFile) {
        var index: [String: Int] = [:]
        for (i, zone) in catalogue.zones.enumerated() { index[zone.id] = i }
        zoneIndex = index
        self.file = file
    }

    /// Reads `timezones.json` and maps `zoneinfo.bin` from `directory`.
    public static func load(from directory: DataDirectory) throws(DataError) -> TimeZoneRules {
        let catalogue = try TimeZoneCatalogue.load(from: directory)
        let file = try ZoneRulesFile(directory: directory)
        guard file.count == catalogue.zones.count else {
            throw .stale(path: directory.file(ZoneRulesFile.fileName),
                         reason: "it has \(file.count) zones, \(TimeZoneCatalogue.fileName) lists \(catalogue.zones.count); run python3 Scripts/build_timezones.py --fetch")
        }
        return TimeZoneRules(catalogue: catalogue, file: file)
    }

    /// The rules in the data directory found the default way (``DataDirectory/locate()``),
    /// loaded once, on first use; `nil` when they cannot be found or read. Outputs that print
    /// an offset fall back to these when not handed rules of their own.
    public static let located: TimeZoneRules? = try? load(from: DataDirectory.locate())

    /// The offset of zone `id` at `instant` (seconds since 1970-01-01T00:00:00Z), daylight
    /// saving time included; `nil` for a zone these rules do not know.
    public func offset(ofZone id: String, at instant: Int64) -> UTCOffset? {
        guard let i = zoneIndex[id], let rules = try? file.rules(ofZone: i) else { return nil }
        return UTCOffset(seconds: rules.offset(at: instant))
    }

    /// ``offset(ofZone:at:)`` at a `Date`.
    public func offset(ofZone id: String, at date: Date) -> UTCOffset? {
        offset(ofZone: id, at: Int64(date.timeIntervalSince1970.rounded(.down)))
    }
}
