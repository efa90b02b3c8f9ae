import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A request as the server read it off the socket.
public struct RecordedRequest: Sendable {
    public var method: String
    /// The raw request target, e.g. `/rss?hl=fr&gl=FR&ceid=FR:fr`.
    public var target: String
    /// Header names lowercased.
    public var headers: [String: String]
    /// When the server had read the request, in seconds on the server's monotonic clock.
    public var receivedAt: Double = 0

    public var path: String { String(target.split(separator: "?", maxSplits: 1).first ?? "") }

    /// Decoded query parameters.
    public var query: [String: String] {
        let items = URLComponents(string: "http://x" + target)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
    }
}

/// What the server sends back.
public struct ScriptedResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)] = []
    public var body = Data()
    /// Seconds to wait before answering.
    public var delay: Double = 0

    public init(status: Int, headers: [(String, String)] = [], body: Data = Data(), delay: Double = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
    }

    public static func redirect(to location: String) -> ScriptedResponse {
        ScriptedResponse(status: 302, headers: [("Location", location)])
    }

    public static let notFound = ScriptedResponse(status: 404, body: Data("no route".utf8))
}

/// A real HTTP/1.1 server on 127.0.0.1, shared by the headline and server tests, with an ephemeral port, over POSIX sockets.
///
/// Each connection is served on its own thread (so a deliberately slow answer does not hold up
/// the next request), answered with `Connection: close`, and recorded before the answer is
/// chosen. `route` gets the request and how many times its path has been asked for so far
/// (1 for the first), which lets a test script "500, then success".
public final class LoopbackHTTPServer: @unchecked Sendable {
    public typealias Route = @Sendable (RecordedRequest, Int) -> ScriptedResponse

    public let port: UInt16
    private let listener: Int32
    private let route: Route
    private let lock = NSLock()
    private var recorded: [RecordedRequest] = []
    private var stopped = false

    public enum StartError: Error { case socket(String) }

    public init(route: @escaping Route) throws {
        self.route = route
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StartError.socket("socket() failed") }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw StartError.socket("bind/listen failed: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Every request so far, in arrival order.
    public var requests: [RecordedRequest] { lock.withLock { recorded } }

    /// How many requests asked for `path`.
    public func count(path: String) -> Int { requests.filter { $0.path == path }.count }

    /// Stops accepting (a connection is then refused); connections being answered finish on
    /// their own. The accept thread closes the listening socket as it ends: closed here, its
    /// number could go to the next server's socket before the thread's next `accept`, and this
    /// server would answer that one's connections.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard var request = readRequest(connection) else { return }
        request.receivedAt = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        let hits = lock.withLock { () -> Int in
            recorded.append(request)
            return recorded.filter { $0.path == request.path }.count
        }
        let response = route(request, hits)
        if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        send(connection, Data(head.utf8) + response.body)
    }

    private func readRequest(_ connection: Int32) -> RecordedRequest? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received = Data()
        let end = Data("\r\n\r\n".utf8)
        while received.range(of: end) == nil, received.count < 65_536 {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            received.append(contentsOf: buffer[0..<count])
        }
        guard let headerEnd = received.range(of: end) else { return nil }
        let lines = String(decoding: received[..<headerEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return RecordedRequest(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers)
    }

    private func send(_ connection: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                // MSG_NOSIGNAL: a client that gave up (timeout tests) must not kill us with SIGPIPE.
                let sent = Glibc.send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 302: return "Found"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 426: return "Upgrade Required"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
