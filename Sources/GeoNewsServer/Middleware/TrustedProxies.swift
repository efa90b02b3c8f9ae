#if canImport(Glibc)
import Glibc
#endif

/// The proxies in front of the server (`--trusted-proxy CIDR`), and the client address a
/// request stands for: from one of them, taken from `Forwarded` (RFC 7239) or
/// `X-Forwarded-For`, the rightmost address that is not itself a trusted proxy; from any other
/// peer, the peer, whatever its headers say, so that a client cannot forge its address.
public struct TrustedProxies: Sendable, Equatable {
    /// One block of addresses: IPv4 or IPv6 bytes and a prefix length.
    public struct Block: Sendable, Equatable, CustomStringConvertible {
        let bytes: [UInt8]
        let prefix: Int

        /// `a.b.c.d/n`, `x:y::z/n`, or an address alone (all its bits); `nil` for anything else.
        public init?(parsing text: Substring) {
            guard text.utf8.count <= 64 else { return nil }
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let address = parts.first, let bytes = Self.bytes(of: String(address)) else { return nil }
            let bits = bytes.count * 8
            if parts.count == 2 {
                // Digits only, bounded where they are read: no sign, no spaces, at most 3 of them.
                let digits = parts[1]
                guard (1...3).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits), n <= bits
                else {
                    return nil
                }
                prefix = n
            } else {
                prefix = bits
            }
            self.bytes = bytes
        }

        /// The 4 or 16 bytes of an IPv4 or IPv6 address in text; `nil` otherwise.
        static func bytes(of text: String) -> [UInt8]? {
            guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
            var v4 = in_addr()
            if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
            var v6 = in6_addr()
            if inet_pton(AF_INET6, text, &v6) == 1 {
                let bytes = withUnsafeBytes(of: &v6) { Array($0) }
                // An IPv4-mapped IPv6 address (::ffff:a.b.c.d, as a dual-stack socket reports an
                // IPv4 peer) is that IPv4 address.
                if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes[12...]) }
                return bytes
            }
            return nil
        }

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = prefix
            for (a, b) in zip(address, bytes) where left > 0 {
                let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
                guard a & mask == b & mask else { return false }
                left -= 8
            }
            return true
        }

        public var description: String {
            let family = bytes.count == 4 ? AF_INET : AF_INET6
            var text = [CChar](repeating: 0, count: 64)
            let shown = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) } != nil
            let end = text.firstIndex(of: 0) ?? text.count
            return (shown ? String(decoding: text[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?") + "/\(prefix)"
        }
    }

    public let blocks: [Block]

    public init(_ blocks: [Block] = []) { self.blocks = blocks }

    /// Whether `address` (text) is in one of the blocks.
    public func trusts(_ address: String) -> Bool {
        guard !blocks.isEmpty, let bytes = Block.bytes(of: address) else { return false }
        return blocks.contains { $0.contains(bytes) }
    }

    /// The client a request from `peer` stands for, given its `Forwarded` and
    /// `X-Forwarded-For` headers (each field's values joined with commas, as HTTP combines
    /// repeated fields). `Forwarded` wins when it names any address. A header that names no
    /// address, or only trusted ones, leaves the peer (or the leftmost trusted one).
    public func client(peer: String, forwarded: String?, forwardedFor: String?) -> String {
        guard trusts(peer) else { return peer }
        let chain = forwarded.map(Self.forwardedFor) ?? []
        let addresses = chain.isEmpty ? (forwardedFor.map(Self.addressList) ?? []) : chain
        guard !addresses.isEmpty else { return peer }
        for address in addresses.reversed() {
            // A value that is not an address (`unknown`, an obfuscated `_node`, garbage) stops
            // the walk: what lies left of it came through a hop that cannot be named.
            guard Block.bytes(of: address) != nil else { return peer }
            if !trusts(address) { return address }
        }
        return addresses[0]
    }

    /// The most hops read from a header: a longer chain is cut to its rightmost ones.
    static let mostHops = 32

    /// The `for=` values of a `Forwarded` header, in order, unquoted and without their ports.
    static func forwardedFor(_ header: String) -> [String] {
        let elements = header.split(separator: ",", omittingEmptySubsequences: true).suffix(mostHops)
        return elements.compactMap { element in
            for pair in element.split(separator: ";") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                guard kv.count == 2, kv[0].trimmingSpaces().lowercased() == "for" else { continue }
                var value = kv[1].trimmingSpaces()
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
                return Self.hostOnly(value)
            }
            return nil
        }
    }

    /// The addresses of an `X-Forwarded-For` header, in order.
    static func addressList(_ header: String) -> [String] {
        header.split(separator: ",").suffix(mostHops).map { Self.hostOnly($0.trimmingSpaces()) }
    }

    /// `[v6]:port` → `v6`, `a.b.c.d:port` → `a.b.c.d`; anything else as it is.
    static func hostOnly(_ value: Substring) -> String {
        if value.hasPrefix("["), let close = value.firstIndex(of: "]") {
            return String(value[value.index(after: value.startIndex)..<close])
        }
        if value.filter({ $0 == ":" }).count == 1, let colon = value.firstIndex(of: ":") { return String(value[..<colon]) }
        return String(value)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var s = self
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return s
    }
}
