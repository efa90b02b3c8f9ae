import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to 127.0.0.1, to send a request in pieces and read the answer as
/// the bytes the server wrote.
final class LoopbackConnection: @unchecked Sendable {  // one user at a time, or send on one thread and receive on another
    private let socket: Int32

    struct Failure: Error { let call: String; let code: Int32 }

    /// - Parameter receiveBufferBytes: a small receive buffer makes a slow reader slow the
    ///   server's writes at once, rather than after megabytes of kernel buffers.
    init(port: Int, receiveBufferBytes: Int32? = nil) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBufferBytes {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 {
            close(socket)
            throw Failure(call: "connect", code: errno)
        }
    }

    func send(_ data: Data) throws {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(call: "send", code: errno) }
            offset += sent
        }
    }

    func send(_ text: String) throws { try send(Data(text.utf8)) }

    /// Whether the server has not closed the connection (nothing waiting to be read counts
    /// as open).
    var isOpen: Bool {
        var byte: UInt8 = 0
        let n = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    }

    private func setReceiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next response head the server sends, up to and with its blank line (or what came
    /// within 10 s).
    func receiveHead() -> String {
        setReceiveTimeout(seconds: 10)
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while !received.suffix(4).elementsEqual([13, 10, 13, 10]), recv(socket, &byte, 1, 0) == 1 { received.append(byte) }
        return String(decoding: received, as: UTF8.self)
    }

    /// Everything the server sends until it closes the connection (or 10 s pass).
    func receiveAll() -> String { String(decoding: receiveAllBytes(), as: UTF8.self) }

    /// Everything the server sends until it closes the connection (or `seconds` pass with
    /// nothing new), as bytes; with `pause`, the reader waits that long between reads of
    /// `readBytes`, a client slower than the server.
    func receiveAllBytes(seconds: Int = 10, readBytes: Int = 4096, pause: Duration? = nil) -> Data {
        setReceiveTimeout(seconds: seconds)
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: readBytes)
        while true {
            let n = recv(socket, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received.append(contentsOf: buffer[0..<n])
            if let pause { Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) * 1e-18 + Double(pause.components.seconds)) }
        }
        return received
    }

    /// The bytes up to and with the first `marker` (or what came within `seconds`).
    func receive(through marker: String, seconds: Int = 10) -> Data {
        setReceiveTimeout(seconds: seconds)
        let wanted = Data(marker.utf8)
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.range(of: wanted) == nil {
            let n = recv(socket, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received.append(contentsOf: buffer[0..<n])
        }
        return received
    }

    /// Ends the connection from this side at once: with `reset`, as a client that crashed
    /// (RST), else as one that gave up (FIN).
    func abort(reset: Bool) {
        if reset {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            close(socket)
            closed = true
        } else {
            Glibc.shutdown(socket, Int32(SHUT_RDWR))
        }
    }

    private var closed = false

    deinit { if !closed { close(socket) } }
}

/// An HTTP/1.1 answer as the bytes on the wire: its head and its body, with chunked
/// encoding undone.
struct WireAnswer {
    let head: String
    let body: Data
    /// Whether a chunked body ended with its last, empty chunk; `nil` for a body that is not
    /// chunked.
    let endedWithLastChunk: Bool?
    /// The bytes after this answer (a later answer on the same connection).
    let rest: Data

    var status: Int? { head.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    /// Parses the first answer in `bytes`; `nil` when not even its head is there.
    init?(_ bytes: Data) {
        let data = [UInt8](bytes)
        guard let split = data.indices.first(where: { data[$0...].starts(with: [13, 10, 13, 10]) }) else { return nil }
        head = String(decoding: data[..<split], as: UTF8.self)
        var position = split + 4
        var chunked: Bool?
        var body = [UInt8]()
        let lower = head.lowercased()
        if lower.contains("transfer-encoding: chunked") {
            chunked = false
            while let lineEnd = data[position...].indices.first(where: { data[$0...].starts(with: [13, 10]) }),
                let size = Int(String(decoding: data[position..<lineEnd], as: UTF8.self), radix: 16)
            {
                let start = lineEnd + 2
                if size == 0 {
                    chunked = data.count >= start + 2
                    position = min(data.count, start + 2)
                    break
                }
                guard start + size + 2 <= data.count else {
                    body += data[start..<min(data.count, start + size)]
                    position = data.count
                    break
                }
                body += data[start..<(start + size)]
                position = start + size + 2
            }
        } else if let length = Self.contentLength(head) {
            body = Array(data[position..<min(data.count, position + length)])
            position = min(data.count, position + length)
        } else {
            body = Array(data[position...])
            position = data.count
        }
        self.body = Data(body)
        endedWithLastChunk = chunked
        rest = Data(data[position...])
    }

    private static func contentLength(_ head: String) -> Int? {
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            return Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
