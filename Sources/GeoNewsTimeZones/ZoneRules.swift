/// One IANA zone's rules as tzdata compiles them (TZif, RFC 8536, version 2 or later): its
/// transitions, and the POSIX TZ rule of its footer for every instant after the last one.
public struct ZoneRules: Sendable {
    /// Transition instants (seconds since 1970-01-01T00:00:00Z), ascending.
    let transitions: [Int64]
    /// Seconds east of UTC from each transition on.
    let offsets: [Int]
    /// Seconds east of UTC before the first transition.
    let initialOffset: Int
    let footer: PosixZoneRule?

    /// Parses one TZif file; `nil` when it is not a version 2+ file this reader understands.
    init?(tzif bytes: UnsafeRawBufferPointer) {
        func u32(_ at: Int) -> Int? {
            guard at + 4 <= bytes.count else { return nil }
            return Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
        }
        guard bytes.count >= 44, bytes.starts(with: Array("TZif".utf8)), bytes[4] >= UInt8(ascii: "2") else { return nil }
        // Counts: isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt.
        func counts(_ at: Int) -> [Int]? {
            let c = (0..<6).compactMap { u32(at + 20 + 4 * $0) }
            return c.count == 6 ? c : nil
        }
        guard let v1 = counts(0) else { return nil }
        let v2Header = 44 + v1[3] * 5 + v1[4] * 6 + v1[5] + v1[2] * 8 + v1[1] + v1[0]
        guard let c = counts(v2Header), bytes.count >= v2Header + 44 else { return nil }
        let (leaps, times, types, chars) = (c[2], c[3], c[4], c[5])
        let timesAt = v2Header + 44, indicesAt = timesAt + 8 * times, typesAt = indicesAt + times
        let end = typesAt + 6 * types + chars + 12 * leaps + c[1] + c[0]
        guard types > 0, end < bytes.count else { return nil }
        func utoff(_ type: Int) -> Int {
            Int(Int32(bigEndian: bytes.loadUnaligned(fromByteOffset: typesAt + 6 * type, as: Int32.self)))
        }
        var transitions: [Int64] = [], offsets: [Int] = []
        for i in 0..<times {
            let type = Int(bytes[indicesAt + i])
            guard type < types else { return nil }
            transitions.append(Int64(bigEndian: bytes.loadUnaligned(fromByteOffset: timesAt + 8 * i, as: Int64.self)))
            offsets.append(utoff(type))
        }
        self.transitions = transitions
        self.offsets = offsets
        initialOffset = utoff(0)
        // The footer sits between two newlines after the data.
        let tail = bytes[(end + 1)...].prefix { $0 != UInt8(ascii: "\n") }
        footer = tail.isEmpty ? nil : PosixZoneRule(String(decoding: tail, as: UTF8.self))
        if !tail.isEmpty && footer == nil { return nil }
    }

    /// Seconds east of UTC at `instant` (seconds since 1970-01-01T00:00:00Z).
    public func offset(at instant: Int64) -> Int {
        guard let first = transitions.first, instant >= first else {
            return transitions.isEmpty ? (footer?.offset(at: instant) ?? initialOffset) : initialOffset
        }
        if instant >= transitions[transitions.count - 1], let footer { return footer.offset(at: instant) }
        var lo = 0, hi = transitions.count - 1  // the last transition at or before instant
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if transitions[mid] <= instant { lo = mid } else { hi = mid - 1 }
        }
        return offsets[lo]
    }
}
