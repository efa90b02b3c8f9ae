#if canImport(Glibc)
import GeoNewsData
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DataDirectory {
    /// The data version of the area index these data need: the checksum `Data/area-index.json`
    /// records, as 16 hex digits. It names the cache folder, so two data versions never mix.
    public func areaIndexDataID() throws(DataError) -> String {
        let record = try AreaIndexRecord.load(from: self)
        guard record.checksum.count == 16, record.checksum.allSatisfy(\.isHexDigit) else {
            throw .corrupt(path: file(AreaIndexRecord.recordName), reason: "checksum is not 16 hex digits")
        }
        return record.checksum.lowercased()
    }

    /// The folder ``installAreaIndex(into:)`` writes to by default:
    /// `$XDG_CACHE_HOME/geonews/<data id>`, else `$HOME/.cache/geonews/<data id>`.
    public func areaIndexCacheFolder() throws(DataError) -> String {
        let id = try areaIndexDataID()
        guard
            let folder = Self.cacheFolder(
                dataID: id, xdgCacheHome: Self.environment("XDG_CACHE_HOME"),
                home: Self.environment("HOME"))
        else {
            throw .unreadable(path: "$XDG_CACHE_HOME", reason: "neither XDG_CACHE_HOME nor HOME is set; name a folder with --to")
        }
        return folder
    }

    /// The XDG rule: `XDG_CACHE_HOME` when set to an absolute path, else `~/.cache`; `nil`
    /// when neither gives an absolute path.
    package static func cacheFolder(dataID: String, xdgCacheHome: String?, home: String?) -> String? {
        let base: String
        if let x = xdgCacheHome, x.hasPrefix("/") {
            base = x
        } else if let h = home, h.hasPrefix("/") {
            base = (h.hasSuffix("/") ? String(h.dropLast()) : h) + "/.cache"
        } else {
            return nil
        }
        return (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/geonews/" + dataID
    }

    /// Where the resolver reads `area-index.bin` (and `country-areas.bin`, when beside it):
    /// ``/GeoNewsData/DataDirectory/buildFolder`` when it holds the index (`$GEONEWS_BUILD_DATA`, an installed layout, a
    /// checkout's `.build-data`), else the cache folder when the index is there or no build
    /// folder exists (so that the error for a missing index names where
    /// `geonews data install` puts it), else ``/GeoNewsData/DataDirectory/buildFolder``.
    public var areaIndexFolder: String {
        let build = buildFolder
        if getenv("GEONEWS_BUILD_DATA") != nil || Self.readable(build + "/" + AreaIndexRecord.fileName) { return build }
        if let cache = try? areaIndexCacheFolder(),
            Self.readable(cache + "/" + AreaIndexRecord.fileName) || !Self.readable(build)
        {
            return cache
        }
        return build
    }

    /// Makes the area index and the land index these data need ready to use: unpacks
    /// `Data/area-index.pack` and `Data/land-index.pack` into `folder` (by default
    /// ``areaIndexCacheFolder()``, created if needed) unless files of the recorded sizes and
    /// checksums are there already. (Data with no `land-index.json` get the area index alone.) The index is written to a temporary file
    /// in that folder, checked against `Data/area-index.json`, and only then renamed into
    /// place, so an interruption leaves no partial `area-index.bin`. The two packs are unpacked side
    /// by side, on two threads, in about a second; when one fails, the other is still installed,
    /// and the error names the pack that failed (the area pack when both do).
    ///
    /// What it writes leaves the page cache once on disk, and a check of files already there
    /// leaves the cache as it found it (see ``/GeoNewsData/PageCache``): a batch, a server or a
    /// library's process then holds resident only the pages of the indexes its lookups read.
    ///
    /// - Parameter folder: the folder to hold `area-index.bin`; `nil` for the cache folder.
    /// - Returns: the path of the checked `area-index.bin`.
    @discardableResult
    public func installAreaIndex(into folder: String? = nil) throws(DataError) -> String {
        let record = try AreaIndexRecord.load(from: self)
        let chosen: String
        if let folder { chosen = folder } else { chosen = try areaIndexCacheFolder() }
        let target = chosen + "/" + AreaIndexRecord.fileName
        // Data that record no land index (a hand-made folder of the area index alone) install
        // only the area index.
        let land =
            Self.readable(file(LandIndexFormat.recordName))
            ? try AreaIndexRecord.load(from: self, recordName: LandIndexFormat.recordName) : nil
        let landTarget = chosen + "/" + LandIndexFormat.fileName
        let areaReady = Self.holds(target, record, headerSize: AreaIndexFormat.headerSize)
        let landReady = land.map { land in Self.holds(landTarget, land, headerSize: CountryIndexFormat.headerSize) } ?? true
        if areaReady && landReady { return target }
        try Self.makeFolders(chosen)
        Self.removeAbandonedPartials(in: chosen)
        // The two unpacks share nothing but the folder, so they run side by side.
        try sideBySide(
            { () throws(DataError) in
                if !areaReady { try AreaIndexPack.unpack(pack: file(AreaIndexPack.fileName), to: target, expecting: record) }
            },
            { () throws(DataError) in
                if let land, !landReady { try LandIndexPack.unpack(pack: file(LandIndexPack.fileName), to: landTarget, expecting: land) }
            })
        return target
    }

    /// Whether the file at `path` is the one `record` names (its size and the checksum of the
    /// bytes after its header of `headerSize`). Each window the checksum has read is dropped
    /// from the resident set behind it: a process that checks its indexes at every open (a
    /// library's, a Spark worker's) does not hold their whole size for it.
    ///
    /// The pages the check reads into the page cache leave it after (``/GeoNewsData/PageCache``):
    /// those lookups read before stay. A library checks at every open (each Spark worker's), and
    /// reads the rest from the disk each time: 0.44–0.47 s for a Python process that imports
    /// geonews and resolves one position.
    private static func holds(_ path: String, _ record: AreaIndexRecord, headerSize: Int) -> Bool {
        guard let existing = try? MappedFile(path: path), existing.bytes.count == record.bytes else { return false }
        func check(_ bytes: UnsafeRawBufferPointer) -> Bool {
            var sum = RunningChecksum(skipping: headerSize)
            var start = 0
            while start < bytes.count {
                let window = UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + (8 << 20), bytes.count)])
                sum.add(window)
                existing.releaseResidentPages(in: window)
                start += window.count
            }
            return AreaIndexPack.hex(sum.value) == record.checksum
        }
        return withExtendedLifetime(existing) { PageCache.leavingAsFound(existing, check) }
    }

    private static func readable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// How old a temporary file of an unpack must be to be taken for one a killed run left
    /// behind (an unpack takes seconds).
    package static let abandonedPartialSeconds = 600

    /// Removes the temporary files of unpacks killed before they could remove them
    /// (`area-index.bin.partial-*` and `land-index.bin.partial-*` not written to for
    /// ``abandonedPartialSeconds``).
    package static func removeAbandonedPartials(in folder: String) {
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        let prefixes = [AreaIndexRecord.fileName + ".partial-", LandIndexFormat.fileName + ".partial-"]
        let now = time(nil)
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard prefixes.contains(where: { name.hasPrefix($0) }) else { continue }
            let path = folder + "/" + name
            var info = stat()
            if lstat(path, &info) == 0, now - info.st_mtim.tv_sec > abandonedPartialSeconds { unlink(path) }
        }
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `mkdir -p`.
    private static func makeFolders(_ path: String) throws(DataError) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o755) != 0 && errno != EEXIST {
                throw .unreadable(path: built, reason: "cannot create the folder (\(String(cString: strerror(errno))))")
            }
        }
    }
}

/// What the committed packs (``AreaIndexPack``, ``LandIndexPack``) have in common: a header that
/// declares the rebuilt file's size and checksum, bounded as it is read, and a decoder that
/// hands the file's bytes on in order, so that a pack is unpacked in one pass through a small
/// buffer.
package protocol PackFormat {
    associatedtype Header
    /// How many bytes the header is read from.
    static var packHeaderBytes: Int { get }
    /// Reads and bounds a header (`packBytes`: the pack's size).
    static func header(_ bytes: [UInt8], packBytes: UInt64, path: String) throws(DataError) -> Header
    /// The rebuilt file's size and checksum that a header declares.
    static func declared(by header: Header) -> (bytes: UInt64, checksum: UInt64)
    /// Rebuilds the file `header` describes, handing its bytes to `sink` in order; returns
    /// their checksum.
    static func decode(
        source: PackSource, header: Header, path: String, sink: @escaping (UnsafeRawBufferPointer) throws(DataError) -> Void
    ) throws(DataError) -> UInt64
}

extension PackFormat {
    /// The file a pack in memory rebuilds (for the encoder's own check and for tests).
    package static func decode(pack: UnsafeRawBufferPointer, path: String) throws(DataError) -> [UInt8] {
        let header = try Self.header(Array(pack.prefix(packHeaderBytes)), packBytes: UInt64(pack.count), path: path)
        var out: [UInt8] = []
        let sum = try decode(source: .memory(pack), header: header, path: path) { (b) throws(DataError) in out += b }
        guard sum == declared(by: header).checksum else { throw .corrupt(path: path, reason: "rebuilt index fails its checksum") }
        return out
    }

    /// Rebuilds the file at `target` from the pack at `pack`: into a temporary file beside it,
    /// checked against `record`, then renamed over `target`. Nothing is left behind on failure.
    package static func unpack(pack: String, to target: String, expecting record: AreaIndexRecord) throws(DataError) {
        let fd = open(pack, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: pack, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: pack, reason: String(cString: strerror(errno))) }
        var head = [UInt8](repeating: 0, count: packHeaderBytes)
        let n = head.withUnsafeMutableBufferPointer { PackSource.file(fd).read(at: 0, count: $0.count, into: $0.baseAddress!) }
        let header = try Self.header(Array(head[0..<n]), packBytes: UInt64(info.st_size), path: pack)
        let declared = Self.declared(by: header)
        guard declared.bytes == UInt64(record.bytes), AreaIndexPack.hex(declared.checksum) == record.checksum.lowercased() else {
            throw .stale(
                path: pack,
                reason: "it holds index \(AreaIndexPack.hex(declared.checksum)) of \(declared.bytes) bytes, "
                    + "\(record.file)'s record names \(record.checksum) of \(record.bytes)")
        }
        var template = Array((target + ".partial-XXXXXX").utf8CString)
        let out = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard out >= 0 else {
            throw .unreadable(path: target, reason: "cannot create a file beside it (\(String(cString: strerror(errno))))")
        }
        let partial = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var isOpen = true
        do throws(DataError) {
            let sum = try decode(source: .file(fd), header: header, path: pack) { (b) throws(DataError) in
                var done = 0
                while done < b.count {
                    let w = write(out, b.baseAddress! + done, b.count - done)
                    if w < 0 && errno == EINTR { continue }
                    guard w > 0 else { throw .unreadable(path: target, reason: "cannot write (\(String(cString: strerror(errno))))") }
                    done += w
                }
            }
            guard AreaIndexPack.hex(sum) == record.checksum.lowercased() else {
                throw .corrupt(
                    path: pack, reason: "the rebuilt index's checksum \(AreaIndexPack.hex(sum)) is not the recorded \(record.checksum)")
            }
            isOpen = false
            guard fchmod(out, 0o644) == 0, fsync(out) == 0 else {
                close(out)
                throw .unreadable(path: target, reason: "cannot write (\(String(cString: strerror(errno))))")
            }
            // On disk now: the index's lookups bring back the pages they read (see installAreaIndex).
            PageCache.drop(descriptor: out)
            guard close(out) == 0 else {
                throw .unreadable(path: target, reason: "cannot write (\(String(cString: strerror(errno))))")
            }
            guard rename(partial, target) == 0 else {
                throw .unreadable(path: target, reason: "cannot rename into place (\(String(cString: strerror(errno))))")
            }
        } catch {
            if isOpen { close(out) }
            unlink(partial)
            throw error
        }
    }
}

extension AreaIndexPack: PackFormat {
    package static var packHeaderBytes: Int { fullHeaderSize }

    package static func header(_ bytes: [UInt8], packBytes: UInt64, path: String) throws(DataError) -> Header {
        try Header(bytes, packBytes: packBytes, path: path)
    }

    package static func declared(by header: Header) -> (bytes: UInt64, checksum: UInt64) { (header.unpackedBytes, header.checksum) }
}

extension LandIndexPack: PackFormat {
    package static var packHeaderBytes: Int { headerSize }

    package static func header(_ bytes: [UInt8], packBytes: UInt64, path: String) throws(DataError) -> Header {
        try Header(bytes, packBytes: packBytes, path: path)
    }

    package static func declared(by header: Header) -> (bytes: UInt64, checksum: UInt64) { (header.unpackedBytes, header.checksum) }
}
