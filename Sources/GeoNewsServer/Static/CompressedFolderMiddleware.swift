import Foundation
import Hummingbird

/// Serves a folder's files from memory under `urlBasePath`: each read at start and compressed
/// once, when first asked for with gzip (``CompressedAsset``), so the page and Leaflet go out gzipped with strong ETags. A
/// path that names a folder answers its `index.html`; any other path passes to the next
/// responder. The folder is read at start: edits show after a restart.
struct CompressedFolderMiddleware<Context: RequestContext>: RouterMiddleware {
    private let assets: [String: CompressedAsset]

    /// Files larger than this stay on disk unserved (the folders served hold none).
    static var largestFile: Int { 8 << 20 }

    init(folder: String, urlBasePath: String = "", cacheControl: String) {
        var assets: [String: CompressedAsset] = [:]
        let root = URL(fileURLWithPath: folder).standardizedFileURL
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey])
        while let url = files?.nextObject() as? URL {
            guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey]),
                values.isRegularFile == true, (values.fileSize ?? 0) <= Self.largestFile,
                let bytes = FileManager.default.contents(atPath: url.path)
            else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.path.count))
            let type = MediaType.getMediaType(forExtension: url.pathExtension).map { "\($0)" } ?? "application/octet-stream"
            let asset = CompressedAsset(bytes: [UInt8](bytes), contentType: type, cacheControl: cacheControl)
            assets[urlBasePath + relative] = asset
            if url.lastPathComponent == "index.html" {
                let folderPath = urlBasePath + String(relative.dropLast("index.html".count))
                assets[folderPath] = asset
                if folderPath.count > 1 { assets[String(folderPath.dropLast())] = asset }
            }
        }
        self.assets = assets
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, let asset = assets[request.uri.path] else {
            return try await next(request, context)
        }
        return asset.response(to: request)
    }
}
