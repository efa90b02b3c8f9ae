import Foundation

/// Provider answers kept on disk, one file per request, so repeated runs within the TTL cost no
/// network and a failing network can still be answered with what we last saw.
///
/// A file is named after a 64-bit FNV-1a hash of `ProviderRequest.cacheIdentity` (provider and
/// key-free URL) and holds one JSON header line (`identity`, `storedAt`, `url`) followed by the
/// raw body, so it can be inspected with `head -1`. The identity is checked on read, so a hash
/// collision is a miss, never a wrong answer. Files are written to a temporary name and renamed
/// into place (readers never see half a file) with mode 0600.
public struct ResponseCache: Sendable {
    /// The folder holding the entries, created on first write with mode 0700.
    public let directory: URL
    /// How long an entry counts as fresh, in seconds.
    public let timeToLive: Double
    /// How old an entry may be and still be served when the network fails, in seconds.
    public let staleLimit: Double

    public init(directory: URL, timeToLive: Double = 15 * 60, staleLimit: Double = 7 * 24 * 3600) {
        self.directory = directory
        self.timeToLive = timeToLive
        self.staleLimit = staleLimit
    }

    /// A cached answer.
    struct Entry: Sendable {
        var body: Data
        var url: URL
        var storedAt: Date

        func age(now: Date = Date()) -> Double { max(0, now.timeIntervalSince(storedAt)) }
    }

    private struct Header: Codable {
        var identity: String
        var storedAt: Double
        var url: String
    }

    /// The entry for `identity`, whatever its age; `nil` when absent or unreadable.
    func entry(for identity: String) -> Entry? {
        guard let handle = try? FileHandle(forReadingFrom: fileURL(for: identity)) else { return nil }
        defer { try? handle.close() }
        guard let contents = try? handle.readToEnd(),
            let newline = contents.firstIndex(of: UInt8(ascii: "\n")),
            let header = try? JSONDecoder().decode(Header.self, from: contents[..<newline]),
            header.identity == identity, let url = URL(string: header.url),
            // A damaged file's time must not make an age that traps when printed in seconds.
            header.storedAt.isFinite, (0...Date().timeIntervalSince1970 + 86_400).contains(header.storedAt)
        else { return nil }
        return Entry(
            body: Data(contents[contents.index(after: newline)...]), url: url,
            storedAt: Date(timeIntervalSince1970: header.storedAt))
    }

    /// Stores `body` for `identity`. Failures are swallowed: a cache that cannot write only
    /// costs a refetch next time.
    func store(_ body: Data, url: URL, for identity: String, now: Date = Date()) {
        let fileManager = FileManager.default
        do {
            try fileManager.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            let header = Header(identity: identity, storedAt: now.timeIntervalSince1970, url: url.absoluteString)
            var contents = try JSONEncoder().encode(header)
            contents.append(UInt8(ascii: "\n"))
            contents.append(body)
            let target = fileURL(for: identity)
            let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
            guard
                fileManager.createFile(
                    atPath: temporary.path, contents: contents,
                    attributes: [.posixPermissions: 0o600])
            else { return }
            if rename(temporary.path, target.path) != 0 { try? fileManager.removeItem(at: temporary) }
        } catch {
            return
        }
    }

    func fileURL(for identity: String) -> URL {
        directory.appendingPathComponent(String(format: "%016llx", Self.fnv1a(identity)) + ".cache")
    }

    /// FNV-1a, 64 bits: stable across runs and platforms, unlike `Hasher`.
    private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
